package dev.senders.scope;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Decorates work spawned into a scope: carries the spawning thread's context (MDC, trace, security
 * context) to the threads the work starts and completes on, and observes how each piece of work
 * ends. The one extension point for spawned work, as Spring's {@code TaskDecorator} is for tasks:
 * a decorator is applied through a token ({@link #token(AsyncScopeToken, String)}), so
 * {@link Scopes#spawn}, {@link Scopes#spawnFuture}, {@link Scopes#nest}, {@code ReactorScopes.spawn},
 * {@code RxScopes.spawn} and a {@link ScopeExecutor} spawning through that token all decorate alike.
 *
 * <p>The lifecycle of one piece of work, and the thread each step runs on:
 * <ol>
 * <li>{@link #decorate} when the scope connects the work it accepted: for a spawn on the spawning
 *     thread, inside the spawn. Capture the thread's context here, read the spawning request's
 *     observation as the parent, start an observation. A refused spawn is never decorated
 *     ({@link #refused} is told instead); a nested sender is decorated at each connect;
 * <li>{@link Decoration#install()} around the work's connect and start, and around each completion
 *     signal it forwards to the scope, on the thread doing it; closing the result uninstalls, on
 *     the same thread;
 * <li>{@link Decoration#end} exactly once, on the thread that completes the work, before the
 *     completion is forwarded (so a join never completes before the work was seen to end), and
 *     outside {@code install()}; also when the work's connect throws (outcome {@code ERROR}).
 * </ol>
 * Implementations must not throw. {@link #andThen} and {@link #compose} combine decorators: each
 * is decorated in order, installed in order and uninstalled in reverse order. A decorator that
 * installs nothing and keeps nothing per piece of work (a counter, a meter) is a
 * {@link SpawnListener}: the adapters' spawn of unnamed work then tells it without a wrapper.
 */
@FunctionalInterface
public interface SpawnDecorator {

    /** Decorates nothing. */
    SpawnDecorator NONE = (scopeName, workName) -> Decoration.NONE;

    /**
     * Decorates one piece of work the scope has accepted, as it is connected. Called on the
     * connecting thread: for a spawn, the spawning thread.
     *
     * @param scopeName the scope's name (as given to {@link #token(AsyncScopeToken, String)})
     * @param workName  the work's name ({@link Scopes#named}), or {@code null} for unnamed work
     * @return the work's decoration ({@link Decoration#NONE} for none)
     */
    Decoration decorate(String scopeName, @Nullable String workName);

    /**
     * The scope refused a spawn through this decorator's token (it was closed, or full): the work
     * is never decorated or started. Called on the spawning thread. The default does nothing.
     * Must not throw.
     *
     * @param scopeName the scope's name (as given to {@link #token(AsyncScopeToken, String)})
     */
    default void refused(String scopeName) {
    }

    /**
     * This decorator, then {@code next}: both decorate each piece of work; installed in this order,
     * uninstalled in the reverse order, ended in this order.
     *
     * @param next the decorator applied inside this one
     * @return the combination ({@code this} if {@code next} is {@link #NONE})
     * @throws NullPointerException if {@code next} is null
     */
    default SpawnDecorator andThen(SpawnDecorator next) {
        Objects.requireNonNull(next, "next");
        return compose(List.of(this, next));
    }

    /**
     * The decorators in order, as one: {@link #NONE} for none, the decorator itself for one.
     * {@link #NONE} entries are left out.
     *
     * @param decorators the decorators, outermost first
     * @return their combination
     * @throws NullPointerException if the list or an element is null
     */
    static SpawnDecorator compose(List<? extends SpawnDecorator> decorators) {
        List<SpawnDecorator> kept = new ArrayList<>(decorators.size());
        for (SpawnDecorator d : decorators) {
            Objects.requireNonNull(d, "decorator");
            if (d instanceof ComposedSpawnDecorator) {
                kept.addAll(List.of(((ComposedSpawnDecorator) d).decorators));
            } else if (d != NONE) {
                kept.add(d);
            }
        }
        return kept.isEmpty() ? NONE : kept.size() == 1 ? kept.get(0)
                : new ComposedSpawnDecorator(kept.toArray(new SpawnDecorator[0]));
    }

    /**
     * A token of the same scope whose spawned (and nested) work this decorator decorates: it
     * associates, stops, routes errors and counts exactly as {@code token}, and its {@code wrap}
     * puts the decoration inside the work's name (so the scope still lists named work). Make it
     * once and spawn with it; work spawned with {@code token} itself is not decorated.
     *
     * @param token     the scope's token
     * @param scopeName the name {@link #decorate} is told (the scope's name, for logs and tags)
     * @return the decorating token ({@code token} itself if this is {@link #NONE})
     * @throws NullPointerException if an argument is null
     */
    default AsyncScopeToken token(AsyncScopeToken token, String scopeName) {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(scopeName, "scopeName");
        return this == NONE ? token : new DecoratingToken(token, scopeName, this);
    }

    /** How a piece of spawned work ended. */
    enum Outcome {
        /** It completed with a value (for a {@code Mono} or {@code Completable}: it completed). */
        VALUE,
        /** It failed; the error goes to the scope's handler. */
        ERROR,
        /** It was stopped (cancelled, or stopped by the scope). */
        STOPPED;

        /**
         * The outcome as a tag value.
         *
         * @return {@code value}, {@code error} or {@code stopped}
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The decoration of one piece of work, made on the spawning thread by {@link #decorate}. */
    interface Decoration {

        /** Installs nothing and observes nothing. */
        Decoration NONE = () -> Installed.NOTHING;

        /**
         * Installs the decoration on the calling thread (the captured context, the current
         * observation) until the result is closed. Called around the work's connect, start and
         * each completion it forwards, possibly on different threads. Must not throw.
         *
         * @return what to close, on this thread, to uninstall it
         */
        Installed install();

        /**
         * The work ended. Called once, on the thread that completes it, before the scope is told.
         * The default does nothing. Must not throw.
         *
         * @param outcome how it ended
         * @param error   its error when {@code outcome} is {@link Outcome#ERROR}, else {@code null}
         */
        default void end(Outcome outcome, @Nullable Throwable error) {
        }
    }

    /** An installed decoration; {@link #close()} uninstalls it, on the thread that installed it. */
    @FunctionalInterface
    interface Installed extends AutoCloseable {

        /** Nothing to uninstall. */
        Installed NOTHING = () -> { };

        @Override
        void close();
    }
}
