package dev.senders.scope;

import org.jspecify.annotations.Nullable;

/**
 * A {@link SpawnDecorator} that only listens: it is told when the scope accepts a piece of work
 * ({@link #accepted}), how each piece ended ({@link #end}) and when the scope refuses one
 * ({@link #refused}), installs nothing on any thread and keeps no state per piece of work (it is
 * its own {@link SpawnDecorator.Decoration}, the same for every piece). Counters and meters of
 * spawned work are listeners.
 *
 * <p>Because it installs nothing, work spawned through its {@link #token token} needs no wrapper:
 * {@code ReactorScopes.spawn} and {@code RxScopes.spawn} of unnamed work take their direct path
 * and tell the listener themselves, with the same calls on the same threads as the decorated
 * route:
 * <ul>
 * <li>{@link #accepted} once per piece of work the scope accepted, on the spawning thread, before
 *     the work can end;
 * <li>{@link #end} exactly once per accepted piece, on the thread that completes it, before the
 *     scope is told (its error routed, its association released), so the counts are up to date
 *     when a join completes;
 * <li>{@link #refused} on the spawning thread for a spawn the scope refused; that work is never
 *     accepted or ended.
 * </ul>
 * Every other route ({@code Scopes.spawn} of a sender, {@code spawnFuture}, {@code nest}, named
 * work, a {@link ScopeExecutor}) decorates as any decorator does, with the same three calls.
 * Composed with a decorator that installs something ({@link SpawnDecorator#compose}), it is one
 * decoration among others. Implementations must not throw.
 */
public abstract class SpawnListener implements SpawnDecorator, SpawnDecorator.Decoration {

    /** For subclasses. */
    protected SpawnListener() {
    }

    /**
     * The scope accepted a piece of work, which is about to be connected and started. Called on
     * the spawning (connecting) thread, once per piece. Must not throw.
     *
     * @param scopeName the scope's name (as given to {@link #token(AsyncScopeToken, String)})
     * @param workName  the work's name ({@link Scopes#named}), or {@code null} for unnamed work
     */
    protected abstract void accepted(String scopeName, @Nullable String workName);

    /**
     * Tells {@link #accepted} and returns this listener: the decoration of every piece of work.
     *
     * @return {@code this}
     */
    @Override
    public final Decoration decorate(String scopeName, @Nullable String workName) {
        accepted(scopeName, workName);
        return this;
    }

    /**
     * Installs nothing.
     *
     * @return {@link SpawnDecorator.Installed#NOTHING}
     */
    @Override
    public final Installed install() {
        return Installed.NOTHING;
    }

    /**
     * A piece of work this listener was told of ({@link #accepted}) ended. Called once per piece,
     * on the thread that completes it, before the scope is told. Must not throw.
     *
     * @param outcome how it ended
     * @param error   its error when {@code outcome} is {@link SpawnDecorator.Outcome#ERROR}, else {@code null}
     */
    @Override
    public abstract void end(Outcome outcome, @Nullable Throwable error);
}
