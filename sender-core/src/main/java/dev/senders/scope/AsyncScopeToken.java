package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Sender;

/**
 * A non-owning handle to an async scope (P3149R6 [exec.scope.concepts], {@code async_scope_token}).
 *
 * <p>{@link #tryAssociate()} asks the scope to count one more piece of outstanding work; it
 * returns {@code false} once the scope is closed (or joined). Every successful
 * {@code tryAssociate} must be balanced by exactly one {@link #dissociate()}, called after the
 * associated work is finished with everything the scope protects. {@link #wrap(Sender)} lets the
 * scope decorate the work it associates ({@link CountingScope} adds its stop token).
 *
 * <p>Tokens are cheap, thread-safe and may be copied freely; they do not keep the scope from being
 * reported as leaked (see {@link SimpleCountingScope}). {@link Scopes#nest}, {@link Scopes#spawn}
 * and {@link Scopes#spawnFuture} are written against this interface only, so user-defined scopes
 * work with them.
 *
 * <p><b>The default methods</b> ({@link #spawnEnv()}, {@link #wrap(Sender, Env)},
 * {@link #onSpawnError(Throwable, Env)}) are how a scope shapes the work spawned into it: the env
 * that work sees, whether a given receiver env already carries what {@code wrap} would add, and
 * where errors go. The algorithms reach the library's own scopes through these methods and nothing
 * else (no test of a token's class), so a token that forwards every method to another token (a
 * decorator that logs {@code tryAssociate} and {@code dissociate}, say) behaves exactly like the
 * token it forwards to: same stop, same error routing and counting, same cost. A decorator that
 * overrides only the abstract methods and {@link #wrap(Sender)} still works: its work is stopped
 * through {@code wrap}, and its errors go to the env's handler, else to
 * {@link dev.senders.Hooks#onErrorDropped}.
 */
public interface AsyncScopeToken {

    /**
     * Tries to associate one unit of work with the scope: {@code true} if the scope was open (it
     * now counts the work), {@code false} if it is closed or joined (nothing changed).
     *
     * @return {@code true} if the work is now associated
     */
    boolean tryAssociate();

    /**
     * Ends one association made by a successful {@link #tryAssociate()}. May complete waiting
     * joins, on this thread or on their schedulers.
     *
     * @throws IllegalStateException if there is no association to end
     */
    void dissociate();

    /**
     * Lets the scope decorate a sender it is about to associate (P3149R6 {@code token.wrap}). The
     * default is the identity.
     *
     * @param <T> the value type
     * @param sender the sender about to be associated
     * @return the sender to associate instead (by default {@code sender} itself)
     */
    default <T> Sender<T> wrap(Sender<T> sender) {
        return sender;
    }

    /**
     * The env offered to work spawned with this token when the caller passes none
     * ({@link Scopes#spawn(Sender, AsyncScopeToken)}, {@link Scopes#spawnFuture(Sender,
     * AsyncScopeToken)}). A {@link CountingScope}'s binds the scope's stop token, so that the work
     * sees it directly and {@link #wrap(Sender, Env)} has nothing to add. The default is the empty
     * env. Read on every spawn: it must be cheap, must not throw, and should return the same env
     * each time.
     *
     * @return the env spawned work sees by default
     */
    default Env spawnEnv() {
        return Env.empty();
    }

    /**
     * {@link #wrap(Sender)} for work whose receiver offers {@code env}: the scope may return
     * {@code sender} itself when {@code env} already gives the work what {@code wrap} would add (a
     * {@link CountingScope}'s token does when {@code env}'s stop token is the scope's own, as in
     * its {@link #spawnEnv()}). {@link Scopes#spawn} and {@link Scopes#spawnFuture} call this one.
     * The default is {@code wrap(sender)}.
     *
     * @param <T> the value type
     * @param sender the sender about to be associated
     * @param env the env the work's receiver offers
     * @return the sender to associate instead
     */
    default <T> Sender<T> wrap(Sender<T> sender, Env env) {
        return wrap(sender);
    }

    /**
     * Takes an error of work spawned with this token ({@link Scopes#spawn}, and a
     * {@link Scopes#spawnFuture} error that no consumer takes), whose receiver offered {@code env};
     * called on the thread that completes the work, before the work's association is released.
     * The default passes it to {@code env}'s {@link Scopes#SPAWN_ERROR_HANDLER}, else to
     * {@link dev.senders.Hooks#onErrorDropped}; a handler that throws has its exception (with the
     * error suppressed) passed to {@code onErrorDropped}. The library's scopes also count the error
     * ({@code errorCount()}) and fall back to the handler given to the scope's constructor. Should
     * not throw (what it throws is passed to {@code onErrorDropped}).
     *
     * @param error the error of the spawned work
     * @param env the env the work's receiver offered
     */
    default void onSpawnError(Throwable error, Env env) {
        Scopes.handleSpawnError(error, Scopes.envErrorHandler(error, env));
    }
}
