package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.GuardedReceiver;
import dev.senders.internal.signal.ChildOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@code transfer(s, sch)} (P2300R3 [exec.transfer], later {@code continues_on}): when the
 * source completes, its result is stored, a {@code schedule()} operation on {@code scheduler} is
 * connected (with the downstream env, so the downstream stop token reaches it) and started, and
 * the stored value, error or stopped is delivered from there: on the target scheduler's thread.
 * If the schedule operation itself completes with an error or stopped, that is delivered instead
 * (the stored result is discarded), as in P2300.
 */
final class ContinuesOn<T> implements Sender<T> {
    /*
     * The result fields are plain: they are written before the schedule operation is started and
     * read when it completes, which the scheduler orders (the hand-off to an executor or queue is a
     * happens-before edge).
     *
     * On the library's own executor scheduler (recognised by
     * class; a foreign scheduler takes the general path) the operation itself is the Runnable
     * handed to the executor, instead of a schedule operation and its receiver (two objects and two
     * CASes fewer). hopped goes 0 -> 1 by CAS when the task runs, the submission fails, or
     * stop is requested while the hop is pending (the operation is then its own stop callback, as the
     * schedule operation is), so that an executor that runs a task twice, or runs it and then throws,
     * still yields one completion; the loser is reported to Hooks.onErrorDropped (a throw) or
     * ignored (a rerun).
     */

    private static final byte VALUE = 0, ERROR = 1, STOPPED = 2;

    private final Sender<? extends T> source;
    private final Scheduler scheduler;

    ContinuesOn(Sender<? extends T> source, Scheduler scheduler) {
        this.source = source;
        this.scheduler = scheduler;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Op<>(this, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op<T> extends ChildOperation<T, T> implements Runnable {
        private final ContinuesOn<T> transfer;
        private byte kind;
        private @Nullable Object payload;
        /** Executor fast path only: 1 once the hop ran or failed (fits the padding: no extra bytes). */
        private volatile int hopped;
        /** Executor fast path only: this operation registered on the downstream token while the hop is pending. */
        private @Nullable StopCallback stopCallback;

        Op(ContinuesOn<T> transfer, Receiver<? super T> downstream) {
            super(downstream);
            this.transfer = transfer;
            connectChild(transfer.source);
        }

        /** The downstream receiver, for the hop's receiver. */
        Receiver<? super T> out() {
            return downstream;
        }

        @Override
        protected String algorithm() {
            return "continuesOn";
        }

        @Override
        protected void onValue(@Nullable T value) {
            hop(VALUE, value);
        }

        @Override
        protected void onError(Throwable error) {
            hop(ERROR, error);
        }

        @Override
        protected void onStopped() {
            hop(STOPPED, null);
        }

        private void hop(byte k, @Nullable Object p) {
            kind = k;
            payload = p;
            if (transfer.scheduler instanceof Schedulers.ExecutorScheduler) {
                StopToken token = downstream.env().stopToken();
                if (token.stopPossible()) {
                    stopCallback = token.onStop(this); // runs inline if stop was already requested
                    if (hopped != 0) {
                        return;
                    }
                }
                try {
                    ((Schedulers.ExecutorScheduler) transfer.scheduler).executor.execute(this);
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    if (HOPPED.compareAndSet(this, 0, 1)) {
                        payload = null;
                        closeStopCallback();
                        Signals.setError(downstream, t);
                    } else {
                        Hooks.onErrorDropped(t);   // the executor ran the task and then threw
                    }
                }
                return;
            }
            Hop<T> hop = new Hop<>(this);
            OperationState op;
            try {
                op = Connect.schedule(transfer.scheduler, hop);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            if (hop.beginStart()) {
                Let.startForeign(op, "continuesOn");
            }
        }

        /**
         * The executor fast path's hop: what the schedule operation and {@link Hop} do on the
         * general path. Also the stop callback while the hop is pending: called by the stopping
         * thread, it finds stop requested and completes stopped, so a hop dropped by its executor
         * ({@code shutdownNow}) still ends.
         */
        @Override
        public void run() {
            if (!HOPPED.compareAndSet(this, 0, 1)) {
                return;   // an executor that ran the task twice, or stop / a failed submission came first
            }
            closeStopCallback(); // returns at once when we are that callback
            if (downstream.env().stopToken().stopRequested()) {
                payload = null;
                Signals.setStopped(downstream);
            } else {
                deliver();
            }
        }

        private void closeStopCallback() {
            StopCallback cb = stopCallback;
            if (cb != null) {
                stopCallback = null;
                cb.close();
            }
        }

        @SuppressWarnings("unchecked")
        void deliver() {
            Object p = payload;
            payload = null;
            if (kind == VALUE) {
                Signals.setValue(downstream, (T) p);
            } else if (kind == ERROR) {
                Signals.setError(downstream, (Throwable) Nulls.nonNull(p)); // ERROR carries the error
            } else {
                Signals.setStopped(downstream);
            }
        }
    }

    private static final VarHandle HOPPED = VarHandles.field(MethodHandles.lookup(), Op.class, "hopped", int.class);

    /** The schedule operation's receiver. */
    private static final class Hop<T> extends GuardedReceiver<Void> {
        private final Op<T> op;

        Hop(Op<T> op) {
            this.op = op;
        }

        @Override
        protected String algorithm() {
            return "continuesOn";
        }

        @Override
        public Env env() {
            return op.out().env();
        }

        @Override
        protected void onValue(@Nullable Void ignored) {
            op.deliver();
        }

        @Override
        protected void onError(Throwable error) {
            Signals.setError(op.out(), error);
        }

        @Override
        protected void onStopped() {
            Signals.setStopped(op.out());
        }
    }
}
