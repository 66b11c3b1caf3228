package dev.senders;

/**
 * The result of {@link Sender#connect}: the work, ready to begin (P2300R3 [exec.op_state]).
 *
 * <p>{@link #start()} must be called at most once. An operation that is dropped without being
 * started sends nothing to its receiver.
 */
@FunctionalInterface
public interface OperationState {

    /** Begins the work. The receiver is completed exactly once, on this thread or another. */
    void start();
}
