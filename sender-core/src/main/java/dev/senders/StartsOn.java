package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ChildOperation;
import dev.senders.internal.signal.ForwardingReceiver;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.OwnEnvReceiver;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code on(sch, s)} (P2300R3 [exec.on]), named {@code startsOn}: schedules on {@code scheduler}
 * and, from there, starts the source, whose receiver's env answers {@link Query#SCHEDULER} with
 * {@code scheduler} (everything else is the downstream env). The source's completion is forwarded
 * on whatever thread it happens; an error or stopped from the schedule operation is forwarded too
 * (the source is then never started).
 */
final class StartsOn<T> implements Sender<T> {
    /*
     * On the library's own executor scheduler, Schedulers.fromExecutor (recognised by class,
     * so a foreign scheduler always takes the general path) the whole operation is one object,
     * OnExecutor: the operation, the Runnable handed to the executor, the source's
     * receiver and that receiver's env. The general path allocates the operation, the schedule
     * operation, the source's receiver and its env binding.
     */

    private final Scheduler scheduler;
    private final Sender<? extends T> source;

    StartsOn(Scheduler scheduler, Sender<? extends T> source) {
        this.scheduler = scheduler;
        this.source = source;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (scheduler instanceof Schedulers.ExecutorScheduler) {
            return new OnExecutor<>((Schedulers.ExecutorScheduler) scheduler, source, receiver);
        }
        Sender<Void> schedule = Connect.schedule(scheduler);
        return new Op<>(this, receiver, schedule);
    }

    /** The operation, and the receiver of the schedule operation. */
    private static final class Op<T> extends ChildOperation<Void, T> {
        private final StartsOn<T> on;

        Op(StartsOn<T> on, Receiver<? super T> downstream, Sender<Void> schedule) {
            super(downstream);
            this.on = on;
            connectChild(schedule);
        }

        @Override
        protected String algorithm() {
            return "startsOn";
        }

        @Override
        protected void onValue(@Nullable Void ignored) {
            Inner<T> inner = new Inner<>(downstream, downstream.env().with(Query.SCHEDULER, on.scheduler));
            OperationState op;
            try {
                op = Connect.checked(on.source, inner);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            if (inner.beginStart()) {
                Let.startForeign(op, "startsOn");
            }
        }
    }

    /** The source's receiver: forwards, with the scheduler bound in its env. */
    private static final class Inner<T> extends ForwardingReceiver<T, T> {
        private final Env env;

        Inner(Receiver<? super T> downstream, Env env) {
            super(downstream);
            this.env = env;
        }

        @Override
        protected String algorithm() {
            return "startsOn";
        }

        @Override
        public Env env() {
            return env;
        }
    }

    /**
     * startsOn on {@link Schedulers.ExecutorScheduler}, fused into one object: {@code start}
     * hands this object to the executor; {@code run} checks the downstream stop token (stopped if
     * stop was requested before the task runs, as the schedule operation does), connects the
     * source to this object and starts it. A rejected submission completes with that error. The
     * source's env is this object: {@link Query#SCHEDULER} is the scheduler, every other query is
     * the downstream env's.
     */
    static final class OnExecutor<T> implements OperationState, Runnable, OwnEnvReceiver<T> {
        /*
         * The state word.
         * state is PENDING once submitted, then
         * - PENDING -> RUNNING by CAS when the task runs: from then on the operation belongs
         *   to the source; RUNNING -> COMPLETED by CAS at the source's one completion that
         *   reaches downstream (or RUNNING -> EARLY, see below). Nothing ever writes
         *   PENDING or RUNNING back, so no race can let a second completion through.
         * - PENDING -> COMPLETED by CAS when the task did not run yet and either the executor
         *   threw from execute (downstream gets that error) or stop was requested (downstream
         *   gets stopped). The stop callback, registered when the downstream token can stop, is this
         *   object's run too: called by the stopping thread it finds stop requested and
         *   completes stopped. So work queued on an executor that dropped its queue still ends once
         *   stop is requested, and an executor that hands the task to another thread and then throws
         *   cannot complete downstream while the source runs: whichever of the task and the failure
         *   claims PENDING first decides, and the other one's exception goes to
         *   Hooks.onErrorDropped. A scope's join therefore never ends while the source still
         *   runs.
         * - start does not touch state: it checks and sets marker with plain
         *   accesses (null -> STARTED; the executor's hand-off publishes it to run).
         *   A second start after the first throws ProtocolViolationException, as on
         *   the general path. Two racing starts (a data race by the caller) may both submit;
         *   the second task then finds the operation claimed and does nothing. (jcstress
         *   StartsOnExecutorStartVsStart.)
         * - A completion while the source is being connected, on the thread that connects it, is
         *   recognised by thread identity, as in the spawn receiver: marker holds that thread
         *   during connect (and STARTED otherwise), and only that thread can see
         *   itself there. It CASes RUNNING -> EARLY; after connect the source is
         *   then not started and EARLY -> COMPLETED (CAS) delivers the violation downstream
         *   as the error.
         * - A completion during connect on another thread is taken as the completion
         *   (downstream gets it) and the source is not started.
         * - Anything after that is a second completion: reported to Hooks.onErrorDropped.
         */

        private static final int PENDING = 0, RUNNING = 1, COMPLETED = 2, EARLY = 3;
        /** {@code marker} once started, except while a thread connects the source. */
        private static final Object STARTED = new Object();

        private final Schedulers.ExecutorScheduler scheduler;
        private final Sender<? extends T> source;
        private final Receiver<? super T> downstream;
        private volatile int state;
        /** null until start; then {@link #STARTED}, or the thread connecting the source during connect. */
        private @Nullable Object marker;
        /** This object registered on the downstream token while the task is pending; null if it cannot stop. */
        private @Nullable StopCallback stopCallback;

        OnExecutor(Schedulers.ExecutorScheduler scheduler, Sender<? extends T> source, Receiver<? super T> downstream) {
            this.scheduler = scheduler;
            this.source = source;
            this.downstream = downstream;
        }

        @Override
        public void start() {
            if (marker != null) {
                throw ImmediateOperation.startedTwice(this);
            }
            marker = STARTED;
            StopToken token = downstream.env().stopToken();
            if (token.stopPossible()) {
                stopCallback = token.onStop(this); // runs inline if stop was already requested
                if (state != PENDING) {
                    return;
                }
            }
            try {
                scheduler.executor.execute(this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (STATE.compareAndSet(this, PENDING, COMPLETED)) {
                    closeStopCallback();
                    Signals.setError(downstream, t);
                } else {
                    Hooks.onErrorDropped(t);   // the task runs (or ran, or was stopped): it owns the operation
                }
            }
        }

        /** The executor's task; also the stop callback while the task is pending (see the notes). */
        @Override
        public void run() {
            if (!STATE.compareAndSet(this, PENDING, RUNNING)) {
                return;   // a rerun by the executor, or a stop / a failed submission came first
            }
            closeStopCallback();   // returns at once when we are that callback
            Receiver<? super T> d = downstream;
            if (d.env().stopToken().stopRequested()) {
                state = COMPLETED;
                Signals.setStopped(d);
                return;
            }
            // No finally and no merge of op with null: HotSpot's optimizing compiler does not
            // scalar-replace an allocation that meets null at a merge on every supported JDK, and
            // the source's operation often is one.
            OperationState op;
            marker = Thread.currentThread();
            try {
                op = Connect.checked(source, this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                marker = STARTED;
                connectThrew(t);
                return;
            }
            marker = STARTED;
            if (state == RUNNING) {
                Let.startForeign(op, "startsOn");
            } else if (STATE.compareAndSet(this, EARLY, COMPLETED)) {
                Signals.setError(d, new ProtocolViolationException(
                        "startsOn: the child sender completed before start (a sender must not complete before its operation is started)"));
            }
            // else COMPLETED: it completed during connect on another thread, which was its completion
        }

        private void closeStopCallback() {
            StopCallback cb = stopCallback;
            if (cb != null) {
                stopCallback = null;
                cb.close();
            }
        }

        private void connectThrew(Throwable failure) {
            if (STATE.compareAndSet(this, RUNNING, COMPLETED) || STATE.compareAndSet(this, EARLY, COMPLETED)) {
                Signals.setError(downstream, failure);
            } else {
                Hooks.onErrorDropped(failure);   // connect threw after the source had completed
            }
        }

        /** True if this completion goes downstream; false if early (recorded) or a second one (reported). */
        private boolean enter(String signal, @Nullable Throwable error) {
            if (marker == Thread.currentThread()) {
                if (STATE.compareAndSet(this, RUNNING, EARLY)) {
                    return false;
                }
            } else if (STATE.compareAndSet(this, RUNNING, COMPLETED)) {
                return true;
            }
            Hooks.onErrorDropped(Signals.extraCompletion("startsOn: the child sender called " + signal
                    + " after it had already completed (a sender must deliver exactly one completion per start; the extra signal was ignored)", error));
            return false;
        }

        @Override
        public void setValue(@Nullable T value) {
            if (enter("setValue", null)) {
                Signals.setValue(downstream, value);
            }
        }

        @Override
        public void setError(Throwable error) {
            Throwable e = error == null ? new NullPointerException("startsOn: child called setError(null)") : error;
            if (enter("setError", e)) {
                Signals.setError(downstream, e);
            } else if (state == EARLY && marker == Thread.currentThread()) {
                Hooks.onErrorDropped(e);   // an early error: reported now, never lost
            }
        }

        @Override
        public void setStopped() {
            if (enter("setStopped", null)) {
                Signals.setStopped(downstream);
            }
        }

        /** The source's env (this object): the scheduler, and the downstream env for every other query. */
        @Override
        @SuppressWarnings("unchecked")
        public <V> @Nullable V get(Query<V> query) {
            return query == Query.SCHEDULER ? (V) scheduler : downstream.env().get(query);
        }

        /** Read as the executor's task (rejection messages) and as the source's env. */
        @Override
        public String toString() {
            return "startsOn[scheduler=" + scheduler + "]";
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), OnExecutor.class, "state", int.class);
    }
}
