package dev.senders.reactor;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.internal.signal.Connect;
import dev.senders.StopCallback;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import reactor.core.Disposable;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@link ReactorSchedulers#toReactor}: a Reactor scheduler that runs tasks from the completions of
 * a sender scheduler's {@code schedule()} sender. The contract is on {@link ReactorSchedulers#toReactor}.
 */
final class SenderToReactorScheduler implements reactor.core.scheduler.Scheduler {
    /*
     * dispose() is one InplaceStopSource, shutdown; every pending direct task
     * and every worker registers a stop callback on it that requests stop on its own source, so each
     * Disposable can be disposed alone while the scheduler's dispose reaches all of them.
     *
     * A direct task (DirectTask) has one state word: STARTING while its operation's
     * start() runs, so that an error delivered during it becomes the
     * RejectedExecutionException thrown by schedule, and ERROR when that happened.
     *
     * A worker (SerialWorker) is a serializing queue: wip counts tasks offered and
     * not yet drained; the thread that moves it from 0 starts one schedule() operation whose
     * setValue drains the queue until wip returns to 0 (the classic missed-counter
     * drain loop), so a worker's tasks never overlap and run in submission order.
     */

    private final Scheduler scheduler;
    private final InplaceStopSource shutdown = new InplaceStopSource();

    SenderToReactorScheduler(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public Disposable schedule(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (shutdown.stopRequested()) {
            throw new RejectedExecutionException("ReactorSchedulers.toReactor(" + scheduler + ") is disposed");
        }
        DirectTask t = new DirectTask(task);
        t.start(scheduler, shutdown);
        return t;
    }

    @Override
    public Worker createWorker() {
        if (shutdown.stopRequested()) {
            throw new RejectedExecutionException("ReactorSchedulers.toReactor(" + scheduler + ") is disposed");
        }
        return new SerialWorker(scheduler, shutdown);
    }

    @Override
    public void dispose() {
        shutdown.requestStop();
    }

    @Override
    public boolean isDisposed() {
        return shutdown.stopRequested();
    }

    @Override
    public String toString() {
        return "ReactorSchedulers.toReactor(" + scheduler + ")";
    }

    static void runTask(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Dropped.error(t, Context.empty()); // as Reactor's own workers do, never into the sender's thread
        }
    }

    /** One {@code schedule(task)}: the receiver of one {@code schedule()} operation and its Disposable. */
    static final class DirectTask implements Receiver<Void>, Disposable {
        static final int STARTING = 1, ERROR = 2, DONE = 4;

        private final Runnable task;
        private final InplaceStopSource stop = new InplaceStopSource();
        private final Env env = Env.of(Query.STOP_TOKEN, stop.token());
        private @Nullable StopCallback parent;
        private @Nullable Throwable startError;
        private volatile int state;

        DirectTask(Runnable task) {
            this.task = task;
        }

        void start(Scheduler scheduler, InplaceStopSource shutdown) {
            state = STARTING;
            parent = shutdown.token().onStop(stop::requestStop);
            try {
                OperationState op = Connect.schedule(scheduler, this);
                op.start();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                setError(t);
            }
            int prev = (int) STATE.getAndBitwiseAnd(this, ~STARTING);
            if ((prev & ERROR) != 0) {
                Throwable e = Nulls.nonNull(startError); // written before the ERROR bit
                startError = null;
                throw e instanceof RejectedExecutionException
                        ? (RejectedExecutionException) e
                        : new RejectedExecutionException("the sender scheduler refused the task: " + e.getMessage(), e);
            }
        }

        private void finish() {
            STATE.getAndBitwiseOr(this, DONE);
            StopCallback p = parent;
            if (p != null) {
                parent = null;
                p.close();
            }
        }

        @Override
        public void setValue(@Nullable Void v) {
            finish();
            if (!stop.stopRequested()) { // a disposed task never runs
                runTask(task);
            }
        }

        @Override
        public void setError(Throwable e) {
            if (e == null) {
                e = new NullPointerException("setError(null)");
            }
            for (;;) {
                int s = state;
                if ((s & STARTING) != 0) {
                    startError = e;
                    if (STATE.compareAndSet(this, s, s | ERROR | DONE)) {
                        break;
                    }
                } else {
                    if (STATE.compareAndSet(this, s, s | DONE)) {
                        Dropped.error(e, Context.empty());
                        break;
                    }
                }
            }
            StopCallback p = parent;
            if (p != null) {
                parent = null;
                p.close();
            }
        }

        @Override
        public void setStopped() {
            finish(); // disposed before it ran: nothing to do
        }

        @Override
        public Env env() {
            return env;
        }

        @Override
        public void dispose() {
            stop.requestStop();
        }

        @Override
        public boolean isDisposed() {
            return (state & DONE) != 0 || stop.stopRequested();
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), DirectTask.class, "state", int.class);
    }

    /** Reactor's worker semantics: tasks run one at a time, in order; dispose drops the rest. */
    static final class SerialWorker implements Worker, Receiver<Void> {
        private final Scheduler scheduler;
        private final InplaceStopSource stop = new InplaceStopSource();
        private final Env env = Env.of(Query.STOP_TOKEN, stop.token());
        private final Queue<WorkerTask> queue = new ConcurrentLinkedQueue<>();
        private @Nullable StopCallback parent; // null if the scheduler was disposed while this worker was created
        private volatile int wip;
        /** The thread starting a drain, while it does (a refusal seen by it is thrown from schedule). */
        private @Nullable Thread starting;
        /** A refusal of the drain seen during its start, for the starter to throw; starter thread only. */
        private @Nullable Throwable startRefusal;

        SerialWorker(Scheduler scheduler, InplaceStopSource shutdown) {
            this.scheduler = scheduler;
            this.parent = shutdown.token().onStop(this::dispose);
        }

        @Override
        public Disposable schedule(Runnable task) {
            Objects.requireNonNull(task, "task");
            if (stop.stopRequested()) {
                throw new RejectedExecutionException("this worker is disposed");
            }
            WorkerTask t = new WorkerTask(task);
            queue.offer(t);
            if ((int) WIP.getAndAdd(this, 1) == 0) {
                starting = Thread.currentThread();
                try {
                    Connect.schedule(scheduler, this).start();
                } catch (Throwable e) {
                    Signals.throwIfFatal(e);
                    setError(e);
                } finally {
                    starting = null;
                }
                Throwable refused = startRefusal;
                if (refused != null) {
                    // refused while we started it: Reactor's contract is to throw (subscribeOn then
                    // signals onError), not to drop the task silently
                    startRefusal = null;
                    throw refused instanceof RejectedExecutionException
                            ? (RejectedExecutionException) refused
                            : new RejectedExecutionException("ReactorSchedulers.toReactor(" + scheduler
                                    + ") could not run the task: " + refused.getMessage(), refused);
                }
            }
            return t;
        }

        /** The drain: runs on the sender scheduler's thread, one drain at a time (wip). */
        @Override
        public void setValue(@Nullable Void v) {
            int missed = wip;
            for (;;) {
                for (int i = 0; i < missed; i++) {
                    WorkerTask t = queue.poll();
                    if (t != null) {
                        if (stop.stopRequested()) {
                            t.dispose(); // the worker was disposed while draining: the rest never runs
                        } else {
                            t.runIfPending();
                        }
                    }
                }
                missed = (int) WIP.getAndAdd(this, -missed) - missed;
                if (missed == 0) {
                    return;
                }
            }
        }

        @Override
        public void setError(Throwable e) {
            // The sender scheduler refused the drain: the queued tasks cannot run. Thrown by the
            // scheduling thread if it is starting the drain, else reported once; the tasks are dropped.
            if (starting == Thread.currentThread()) {
                startRefusal = e;
            } else {
                Dropped.error(new RejectedExecutionException("the sender scheduler refused a worker drain", e),
                        Context.empty());
            }
            discardAll();
        }

        @Override
        public void setStopped() {
            discardAll(); // the worker was disposed
        }

        private void discardAll() {
            int missed = wip;
            for (;;) {
                for (int i = 0; i < missed; i++) {
                    WorkerTask t = queue.poll();
                    if (t != null) {
                        t.dispose();
                    }
                }
                missed = (int) WIP.getAndAdd(this, -missed) - missed;
                if (missed == 0) {
                    return;
                }
            }
        }

        @Override
        public Env env() {
            return env;
        }

        @Override
        public void dispose() {
            if (stop.requestStop()) {
                StopCallback p = parent;
                if (p != null) {
                    p.close(); // returns at once if we are inside the scheduler's dispose callback
                }
            }
        }

        @Override
        public boolean isDisposed() {
            return stop.stopRequested();
        }

        private static final VarHandle WIP = VarHandles.field(MethodHandles.lookup(), SerialWorker.class, "wip", int.class);
    }

    /** A worker's task: PENDING -> RUN (runs it) or PENDING -> DISPOSED (never runs). */
    static final class WorkerTask implements Disposable {
        static final int PENDING = 0, RUN = 1, DISPOSED = 2;
        private final Runnable task;
        private volatile int state;

        WorkerTask(Runnable task) {
            this.task = task;
        }

        void runIfPending() {
            if (STATE.compareAndSet(this, PENDING, RUN)) {
                runTask(task);
            }
        }

        @Override
        public void dispose() {
            STATE.compareAndSet(this, PENDING, DISPOSED);
        }

        @Override
        public boolean isDisposed() {
            return state != PENDING;
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), WorkerTask.class, "state", int.class);
    }
}
