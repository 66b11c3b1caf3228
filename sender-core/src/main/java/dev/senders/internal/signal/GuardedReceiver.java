package dev.senders.internal.signal;

import dev.senders.Hooks;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * The receiver an algorithm connects to a child sender it does not control (shared by the
 * algorithms of {@code dev.senders} and the scopes of {@code dev.senders.scope}; not public API), with the P2300
 * receiver contract ([exec.recv]: no completion before {@code start}, exactly one after) checked
 * on one state word.
 *
 * <p>A completion that arrives before the operation was started is recorded and, when the
 * operation is started, delivered as a {@link ProtocolViolationException} through the error path
 * of the algorithm (the child is not started then). A second completion is reported to
 * {@link Hooks#onErrorDropped(Throwable)}, since the downstream receiver already had its one
 * completion. Subclasses implement {@link #onValue}, {@link #onError} and {@link #onStopped},
 * which see each completion at most once and only after {@link #beginStart()} returned
 * {@code true}.
 */
public abstract class GuardedReceiver<T> implements Receiver<T> {
    /*
     * guard is CONNECTED -> STARTED -> COMPLETED, or CONNECTED -> EARLY
     * when the child completes before start (EARLY -> COMPLETED at start). Each transition is
     * one CAS; the happy path costs one CAS at start and one at completion.
     */

    private static final int CONNECTED = 0, STARTED = 1, COMPLETED = 2, EARLY = 3;

    private volatile int guard;

    /**
     * The algorithm's name, for violation messages.
     *
     * @return the algorithm's name
     */
    protected abstract String algorithm();

    /**
     * The child's value, seen at most once and only after {@link #beginStart()} returned
     * {@code true}.
     *
     * @param value the value (may be {@code null})
     */
    protected abstract void onValue(@Nullable T value);

    /**
     * The child's error, seen at most once and only after {@link #beginStart()} returned
     * {@code true}.
     *
     * @param error the error
     */
    protected abstract void onError(Throwable error);

    /**
     * The child's stopped completion, seen at most once and only after {@link #beginStart()}
     * returned {@code true}.
     */
    protected abstract void onStopped();

    @Override
    public final void setValue(@Nullable T value) {
        if (enter("setValue", null)) {
            onValue(value);
        }
    }

    @Override
    public final void setError(Throwable error) {
        if (enter("setError", error)) {
            onError(error == null ? new NullPointerException(algorithm() + ": child called setError(null)") : error);
        }
    }

    @Override
    public final void setStopped() {
        if (enter("setStopped", null)) {
            onStopped();
        }
    }

    /**
     * Call right before starting the child operation.
     *
     * @return {@code true} if the child should be started; {@code false} if it already completed
     *         before start (the violation has then been delivered through {@link #onError})
     * @throws ProtocolViolationException if the operation was started twice
     */
    public final boolean beginStart() {
        if (GUARD.compareAndSet(this, CONNECTED, STARTED)) {
            return true;
        }
        if (GUARD.compareAndSet(this, EARLY, COMPLETED)) {
            onError(new ProtocolViolationException(algorithm()
                    + ": the child sender completed before start (a sender must not complete before its operation is started)"));
            return false;
        }
        throw ImmediateOperation.startedTwice(algorithm() + "'s operation");
    }

    private boolean enter(String signal, @Nullable Throwable error) {
        for (;;) {
            int s = guard;
            if (s == STARTED) {
                if (GUARD.compareAndSet(this, STARTED, COMPLETED)) {
                    return true;
                }
            } else if (s == CONNECTED) {
                if (GUARD.compareAndSet(this, CONNECTED, EARLY)) {
                    return false;
                }
            } else {
                Hooks.onErrorDropped(Signals.extraCompletion(algorithm() + ": the child sender called "
                        + signal + " after it had already completed (a sender must deliver exactly one completion per start; the extra signal was ignored)", error));
                return false;
            }
        }
    }

    private static final VarHandle GUARD = VarHandles.field(MethodHandles.lookup(), GuardedReceiver.class, "guard", int.class);
}
