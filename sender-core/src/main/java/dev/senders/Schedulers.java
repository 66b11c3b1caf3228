package dev.senders;

import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.ScheduleOperation;
import dev.senders.internal.Trampoline;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The schedulers that come with the library.
 *
 * <table>
 * <caption>Which thread completes what</caption>
 * <tr><th>scheduler</th><th>{@code schedule()} completes</th></tr>
 * <tr><td>{@link #inline()}</td><td>on the thread that calls {@code start}, before it returns</td></tr>
 * <tr><td>{@link #trampoline()}</td><td>on the thread that calls {@code start}; inline while
 *     shallow, deferred to the outermost {@code start} on that thread when nested deeper</td></tr>
 * <tr><td>{@link #runLoop()}</td><td>on the thread that calls {@link RunLoop#run()}</td></tr>
 * <tr><td>{@link #fromExecutor(Executor)}</td><td>on a thread of the executor</td></tr>
 * </table>
 */
public final class Schedulers {

    private static final Scheduler INLINE = new Scheduler() {
        @Override
        public Sender<Void> schedule() {
            return INLINE_SCHEDULE;
        }

        @Override
        public String toString() {
            return "Schedulers.inline()";
        }
    };

    private static final Sender<Void> INLINE_SCHEDULE = receiver -> new ImmediateOperation<Void>(
            Objects.requireNonNull(receiver, "receiver"), ImmediateOperation.SCHEDULE, null);

    private static final Scheduler TRAMPOLINE = trampoline(Trampoline.DEFAULT_MAX_DEPTH);

    private Schedulers() {}

    /**
     * Completes inline on the thread that starts the operation.
     *
     * @return the inline scheduler
     */
    public static Scheduler inline() {
        return INLINE;
    }

    /**
     * Completes on the starting thread, inline up to a nesting depth of 16 and, beyond it, from
     * the outermost {@code start} on that thread: recursive scheduling cannot overflow the stack.
     *
     * @return the trampoline scheduler with the default depth
     */
    public static Scheduler trampoline() {
        return TRAMPOLINE;
    }

    /**
     * A trampoline with the given maximum nesting depth (at least 1).
     *
     * @param maxDepth how many nested starts run inline before the trampoline takes over
     * @return a trampoline scheduler
     * @throws IllegalArgumentException if {@code maxDepth} is less than 1
     */
    public static Scheduler trampoline(int maxDepth) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
        }
        Sender<Void> schedule = receiver -> new TrampolineOp(Objects.requireNonNull(receiver, "receiver"), maxDepth);
        return new Scheduler() {
            @Override
            public Sender<Void> schedule() {
                return schedule;
            }

            @Override
            public String toString() {
                return "Schedulers.trampoline(" + maxDepth + ")";
            }
        };
    }

    /**
     * A new run loop, driven by whichever thread calls its {@link RunLoop#run()}.
     *
     * @return a new run loop
     */
    public static RunLoop runLoop() {
        return new RunLoop();
    }

    /**
     * Work scheduled here is {@linkplain Executor#execute submitted} to {@code executor}: any
     * {@code Executor} works, including a virtual-thread-per-task executor. A rejected submission
     * completes the operation with the {@link java.util.concurrent.RejectedExecutionException}
     * (on the starting thread). A stop request on the receiver's token before the task runs
     * completes the operation with {@code setStopped()} at once, on the requesting thread, as a
     * cancelled {@code Future} leaves its queue: so work queued on an executor that later drops
     * its queue ({@code shutdownNow}) still ends once stop is requested. If the executor throws
     * after the task has run, or after a stop request completed the operation, the exception goes
     * to {@link Hooks#onErrorDropped}: the completion follows the task, not the exception.
     *
     * @param executor the executor work is submitted to
     * @return a scheduler backed by {@code executor}
     */
    public static Scheduler fromExecutor(Executor executor) {
        return new ExecutorScheduler(Objects.requireNonNull(executor, "executor"));
    }

    /**
     * {@link #fromExecutor}. Package-private so that {@link StartsOn} can recognise it and fuse
     * the schedule operation into its own (the trusted fast path); behaviour is the same.
     */
    static final class ExecutorScheduler implements Scheduler {
        final Executor executor;
        private final Sender<Void> schedule;

        ExecutorScheduler(Executor executor) {
            this.executor = executor;
            this.schedule = receiver -> new Task(executor, Objects.requireNonNull(receiver, "receiver"));
        }

        @Override
        public Sender<Void> schedule() {
            return schedule;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ExecutorScheduler && ((ExecutorScheduler) o).executor == executor;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(executor);
        }

        @Override
        public String toString() {
            return "Schedulers.fromExecutor(" + executor + ")";
        }
    }

    /** The trampoline's schedule operation: inline while shallow, deferred when deep. */
    private static final class TrampolineOp implements OperationState, Runnable {
        private final Receiver<? super Void> receiver;
        private final int maxDepth;
        private boolean started;

        TrampolineOp(Receiver<? super Void> receiver, int maxDepth) {
            this.receiver = receiver;
            this.maxDepth = maxDepth;
        }

        @Override
        public void start() {
            if (started) {
                throw ImmediateOperation.startedTwice("Schedulers.trampoline(" + maxDepth + ").schedule()'s operation");
            }
            started = true;
            Trampoline.run(this, maxDepth);
        }

        @Override
        public void run() {
            ScheduleOperation.complete(receiver);
        }
    }

    /** The executor's schedule operation: {@link ScheduleOperation} without a handle. */
    private static final class Task extends ScheduleOperation<Void> {
        private final Executor executor;

        Task(Executor executor, Receiver<? super Void> receiver) {
            super(receiver, false);
            this.executor = executor;
        }

        @Override
        protected Void submit() {
            executor.execute(this);
            return null;
        }

        @Override
        public String toString() {
            return "Schedulers.fromExecutor(" + executor + ").schedule()";
        }
    }
}
