package dev.senders;

/**
 * A registration made by {@link StopToken#onStop(Runnable)} ({@code stop_callback} in P2300R3
 * [thread.stoptoken]).
 *
 * <p>{@link #close()} deregisters. After {@code close} returns the callback is not running and
 * will never run, with one exception: a callback that closes its own registration from inside its
 * own invocation returns at once (waiting for itself would deadlock). {@code close} blocks while
 * the callback is running on another thread; that wait is the only blocking in stop tokens.
 */
public interface StopCallback extends AutoCloseable {

    /** Deregisters; idempotent. */
    @Override
    void close();
}
