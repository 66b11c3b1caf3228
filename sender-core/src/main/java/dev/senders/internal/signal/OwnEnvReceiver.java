package dev.senders.internal.signal;

import dev.senders.Env;
import dev.senders.Receiver;

/**
 * A receiver that is its own env: {@link #env()} returns the receiver itself, whose
 * {@link Env#get} answers the queries the receiver binds (a scheduler, its own stop token) and
 * forwards every other query to the env it extends. An operation that binds a query for its child
 * this way needs no {@link Env#with} binding object: the operation, the child's receiver and the
 * child's env are one object. The env is answered on whatever thread asks the receiver for it
 * (usually the child's, during {@code connect} and {@code start}).
 *
 * <p>An implementor writes only {@code get} (and {@code stopToken()} when it is the token itself);
 * it does not override {@code env()}. Implemented by the fused {@code startsOn} on the executor
 * scheduler, the spawn receiver of a scope whose stop token links {@link StopNode}s and
 * {@code spawnFuture}'s work receiver. Not public API: may change without notice.
 *
 * @param <T> the value type the receiver takes
 */
public interface OwnEnvReceiver<T> extends Receiver<T>, Env {

    /**
     * This receiver, as its own env.
     *
     * @return {@code this}
     */
    @Override
    default Env env() {
        return this;
    }
}
