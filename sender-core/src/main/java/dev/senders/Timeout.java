package dev.senders;

import dev.senders.internal.Durations;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.SharedTimer;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * {@code timeout(s, d)}: the source runs with a stop token that also fires when {@code d} has
 * passed since {@code start}; if it fires before the source completed, the operation completes
 * with {@code setError(TimeoutException)} once the source has completed (whatever it completed
 * with: a value is discarded, an error is added to the {@code TimeoutException} as suppressed).
 * Structured: it never completes while the source is still running, so work that ignores stop
 * requests keeps it (and any scope it belongs to) waiting; bound a caller's wait with
 * {@code Senders.syncWait(sender, Duration)} or {@code Scopes.joinOrStop}, which do return.
 */
final class Timeout<T> implements Sender<T> {
    /*
     * One shared timer (SharedTimer: one daemon thread, a queue entry per pending timeout; or
     * the virtual clock a test installed in its place, which runs the deadline when it is advanced). The
     * source is connected as source.stopWhen(fired.token()), so the downstream stop and the
     * deadline both reach it. state is PENDING -> DONE (the source completed first:
     * the timer task is cancelled and the completion forwarded) or PENDING -> TIMED_OUT (the
     * timer task won: it requests stop on the timer thread) and then TIMED_OUT -> DONE at the
     * source's completion, which delivers the TimeoutException. Each transition is one CAS;
     * the timer task is scheduled before the source starts, so it is set before any completion the
     * start causes.
     */

    private final Sender<T> source;
    private final Duration timeout;

    Timeout(Sender<T> source, Duration timeout) {
        this.source = source;
        this.timeout = timeout;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        return new Op<>(this, receiver);
    }

    static final class Op<T> implements OperationState, Receiver<T>, Runnable {
        private static final int PENDING = 0, TIMED_OUT = 1, DONE = 2;

        private final Duration timeout;
        private final Receiver<? super T> downstream;
        private final InplaceStopSource fired = new InplaceStopSource();
        private final OperationState child;
        private volatile int state;
        private volatile @Nullable Future<?> timer;
        private boolean started; // plain: a second start after the first returned is detected and throws (H2)

        Op(Timeout<T> t, Receiver<? super T> downstream) {
            this.timeout = t.timeout;
            this.downstream = downstream;
            this.child = t.source.stopWhen(fired.token()).connect(this);
        }

        @Override
        public void start() {
            if (started) {
                throw ImmediateOperation.startedTwice("timeout's operation"); // before a second timer task
            }
            started = true;
            long nanos = Durations.saturatedNanos(timeout);
            if (nanos <= 0L) {
                run(); // already due: stop requested on this thread before the source starts
            } else {
                timer = SharedTimer.schedule(this, nanos);
            }
            child.start();
        }

        /** The deadline: on the timer thread (or inline in start when already due). */
        @Override
        public void run() {
            if (STATE.compareAndSet(this, PENDING, TIMED_OUT)) {
                fired.requestStop();
            }
        }

        /** True: forward the source's completion; false: it is the TimeoutException's turn (delivered). */
        private boolean complete(@Nullable Throwable error) {
            for (;;) {
                int s = state;
                if (s == DONE) {
                    Hooks.onErrorDropped(Signals.extraCompletion(
                            "timeout: the source completed twice (a sender must deliver exactly one completion per start; the extra signal was ignored)", error));
                    return false;
                }
                if (STATE.compareAndSet(this, s, DONE)) {
                    Future<?> f = timer;
                    if (f != null) {
                        f.cancel(false); // removed from the timer's queue at once (a no-op once it ran)
                    }
                    if (s == PENDING) {
                        return true;
                    }
                    TimeoutException te = new TimeoutException("timeout: the work did not complete within "
                            + Durations.format(timeout) + " (stop was requested on it at the deadline)");
                    if (error != null) {
                        te.addSuppressed(error);
                    }
                    Signals.setError(downstream, te);
                    return false;
                }
            }
        }

        @Override
        public void setValue(@Nullable T value) {
            if (complete(null)) {
                Signals.setValue(downstream, value);
            }
        }

        @Override
        public void setError(Throwable error) {
            if (complete(error)) {
                Signals.setError(downstream, error);
            }
        }

        @Override
        public void setStopped() {
            if (complete(null)) {
                Signals.setStopped(downstream);
            }
        }

        @Override
        public Env env() {
            return downstream.env();
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), Op.class, "state", int.class);
    }
}
