package dev.senders.rxjava3;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.internal.signal.Connect;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import io.reactivex.rxjava3.schedulers.Schedulers;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * {@link RxSchedulers#toRx}: an RxJava {@code Scheduler} that runs tasks through a sender
 * {@link Scheduler}'s {@code schedule()}.
 *
 * <p>Worker semantics as RxJava requires: the tasks of one {@link Worker} run one at a time, in
 * the order they were scheduled (for equal due times), never concurrently; disposing the worker
 * drops its pending tasks and requests stop on the {@code schedule()} operation in flight.
 * Delayed tasks (and hence periodic ones, which {@code Worker.schedulePeriodically} builds on
 * delayed ones) wait on RxJava's {@code Schedulers.single()} timer, then hop onto the sender
 * scheduler through the worker's queue, as RxJava's own {@code Schedulers.from(Executor)} does.
 * A task that throws is reported to {@code RxJavaPlugins.onError} and the worker goes on. If
 * the sender scheduler refuses the {@code schedule()} operation while {@code schedule(task)}
 * starts it (a rejecting executor, a {@code schedule()} that returns null), the worker disposes
 * itself and {@code schedule(task)} throws {@link RejectedExecutionException} (cause: the
 * refusal), so that the operator scheduling the task (e.g. {@code subscribeOn}) fails instead of
 * waiting forever; a later refusal (the operation fails or completes stopped, without our
 * dispose, after it started) goes to {@code RxJavaPlugins.onError} and the worker disposes itself,
 * dropping its pending tasks (as {@code ExecutorWorker} does on
 * {@code RejectedExecutionException}).
 */
final class SenderToRxScheduler extends io.reactivex.rxjava3.core.Scheduler {
    /*
     * A worker is a ConcurrentLinkedQueue of tasks plus a work-in-progress counter
     * wip (VarHandle). The producer that moves wip from 0 to 1 connects and starts one
     * schedule() operation; its setValue drains the queue on the sender scheduler's
     * thread with the usual missed-count loop, so tasks added during the drain run in the same drain
     * and one drain is active at a time (serial, ordered). Every schedule() operation gets the
     * worker's stop token (InplaceStopSource), fired by dispose().
     */

    final Scheduler scheduler;

    SenderToRxScheduler(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public Worker createWorker() {
        return new SenderWorker(scheduler);
    }

    @Override
    public String toString() {
        return "RxSchedulers.toRx(" + scheduler + ")";
    }

    static final class SenderWorker extends Worker implements Receiver<Void> {
        private final Scheduler scheduler;
        private final InplaceStopSource stopSource = new InplaceStopSource();
        private final Env env = Env.of(Query.STOP_TOKEN, stopSource.token());
        private final ConcurrentLinkedQueue<Task> queue = new ConcurrentLinkedQueue<>();
        private volatile int wip;
        private volatile boolean disposed;
        /** The thread starting a drain, while it does (a refusal seen by it is thrown from schedule). */
        private @Nullable Thread starting;
        /** A refusal of the drain seen during its start, for the starter to throw; starter thread only. */
        private @Nullable Throwable startRefusal;

        SenderWorker(Scheduler scheduler) {
            this.scheduler = scheduler;
        }

        @Override
        public Disposable schedule(Runnable run) {
            Objects.requireNonNull(run, "run is null");
            if (disposed) {
                return Disposable.disposed();
            }
            Task task = new Task(RxJavaPlugins.onSchedule(run));
            enqueue(task, true);
            return task;
        }

        @Override
        public Disposable schedule(Runnable run, long delay, TimeUnit unit) {
            Objects.requireNonNull(run, "run is null");
            Objects.requireNonNull(unit, "unit is null");
            if (delay <= 0) {
                return schedule(run);
            }
            if (disposed) {
                return Disposable.disposed();
            }
            Task task = new Task(RxJavaPlugins.onSchedule(run));
            task.timer = Schedulers.single().scheduleDirect(() -> enqueue(task, false), delay, unit);
            return task;
        }

        /**
         * Queues {@code task}; the producer that moves {@code wip} from 0 starts a drain. If the
         * sender scheduler refuses that drain while it is being started (synchronously: a
         * rejecting executor, a broken scheduler), the worker is disposed and, when
         * {@code throwOnRefusal}, {@code schedule} throws {@link RejectedExecutionException} (the
         * scheduler contract RxJava's operators act on, so the subscriber learns of it); from the
         * timer thread (delayed tasks) the refusal goes to {@code RxJavaPlugins.onError}.
         */
        private void enqueue(Task task, boolean throwOnRefusal) {
            if (disposed || task.isDisposed()) {
                return;
            }
            queue.offer(task);
            if ((int) WIP.getAndAdd(this, 1) == 0) {
                starting = Thread.currentThread();
                try {
                    OperationState op = Connect.schedule(scheduler, this);
                    RxStart.start(op, this);
                } catch (Throwable t) {
                    Exceptions.throwIfFatal(t);
                    setError(t);
                } finally {
                    starting = null;
                }
                Throwable refused = startRefusal;
                if (refused != null) {
                    startRefusal = null;
                    RejectedExecutionException e = refused instanceof RejectedExecutionException
                            ? (RejectedExecutionException) refused
                            : new RejectedExecutionException(RxSchedulers.class.getSimpleName() + ".toRx(" + scheduler
                                    + ") could not run the task: " + refused.getMessage(), refused);
                    if (throwOnRefusal) {
                        throw e;
                    }
                    RxJavaPlugins.onError(e);
                }
            }
        }

        @Override
        public Env env() {
            return env;
        }

        /** The drain, on the sender scheduler's thread. */
        @Override
        public void setValue(@Nullable Void ignored) {
            int missed = 1;
            for (;;) {
                for (;;) {
                    if (disposed) {
                        queue.clear();
                        return;
                    }
                    Task t = queue.poll();
                    if (t == null) {
                        break;
                    }
                    t.run();
                }
                missed = (int) WIP.getAndAdd(this, -missed) - missed;
                if (missed == 0) {
                    return;
                }
            }
        }

        @Override
        public void setError(Throwable error) {
            refuse(error);
        }

        @Override
        public void setStopped() {
            if (!disposed) {
                // not our dispose: the sender scheduler gave up on the work (a finished run loop):
                // as good as a rejection, and never silent
                refuse(new RejectedExecutionException(
                        scheduler + " completed schedule() stopped: the worker's pending tasks are dropped"));
            }
            queue.clear();
        }

        /** The drain was refused: during its start, the starter throws it; later, RxJavaPlugins gets it. */
        private void refuse(Throwable error) {
            if (starting == Thread.currentThread()) {
                startRefusal = error;
            } else {
                RxJavaPlugins.onError(error);
            }
            dispose();
            queue.clear();
        }

        @Override
        public void dispose() {
            if (!disposed) {
                disposed = true;
                stopSource.requestStop();
                if ((int) WIP.getAndAdd(this, 1) == 0) {
                    queue.clear(); // no drain active: we own the queue
                }
            }
        }

        @Override
        public boolean isDisposed() {
            return disposed;
        }

        private static final VarHandle WIP = VarHandles.field(MethodHandles.lookup(), SenderWorker.class, "wip", int.class);
    }

    /** One scheduled task: READY -> RUNNING -> DONE, or READY -> DISPOSED. */
    static final class Task implements Runnable, Disposable {
        static final int READY = 0, RUNNING = 1, DONE = 2, DISPOSED = 3;
        private final Runnable run;
        private volatile int state;
        volatile @Nullable Disposable timer;

        Task(Runnable run) {
            this.run = run;
        }

        @Override
        public void run() {
            if (!STATE.compareAndSet(this, READY, RUNNING)) {
                return;
            }
            try {
                run.run();
            } catch (Throwable t) {
                Exceptions.throwIfFatal(t);
                RxJavaPlugins.onError(t);
            } finally {
                state = DONE;
            }
        }

        @Override
        public void dispose() {
            if (STATE.compareAndSet(this, READY, DISPOSED)) {
                Disposable t = timer;
                if (t != null) {
                    t.dispose();
                }
            }
        }

        @Override
        public boolean isDisposed() {
            return state >= DONE;
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), Task.class, "state", int.class);
    }
}
