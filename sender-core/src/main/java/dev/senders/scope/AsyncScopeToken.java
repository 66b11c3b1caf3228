package dev.senders.scope;

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
}
