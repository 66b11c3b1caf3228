package dev.senders;

/**
 * A lazy description of work that completes with a value of type {@code T}, an error, or stopped
 * (P2300R3 [exec.snd]).
 *
 * <p>{@link #connect(Receiver)} binds the work to a receiver and returns the
 * {@link OperationState}; it has no other side effect: nothing runs until
 * {@link OperationState#start()}. A sender is multi-shot (it may be connected any number of
 * times, each connection an independent run) unless its documentation says otherwise; a
 * single-shot sender rejects a second {@code connect} with an {@link IllegalStateException}.
 *
 * @param <T> the value type; {@code Void} for senders that complete with no value
 */
@FunctionalInterface
public interface Sender<T> {

    /**
     * Binds this work to {@code receiver}.
     *
     * @throws NullPointerException if {@code receiver} is null
     */
    OperationState connect(Receiver<? super T> receiver);
}
