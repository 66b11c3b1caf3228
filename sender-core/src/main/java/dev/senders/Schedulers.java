package dev.senders;

import dev.senders.internal.Signals;
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

    private static final Sender<Void> INLINE_SCHEDULE = receiver -> {
        Objects.requireNonNull(receiver, "receiver");
        return () -> completeOn(receiver);
    };

    private static final Scheduler TRAMPOLINE = trampoline(Trampoline.DEFAULT_MAX_DEPTH);

    private Schedulers() {}

    /** Completes inline on the thread that starts the operation. */
    public static Scheduler inline() {
        return INLINE;
    }

    /**
     * Completes on the starting thread, inline up to a nesting depth of 16 and, beyond it, from
     * the outermost {@code start} on that thread: recursive scheduling cannot overflow the stack.
     */
    public static Scheduler trampoline() {
        return TRAMPOLINE;
    }

    /** A trampoline with the given maximum nesting depth (at least 1). */
    public static Scheduler trampoline(int maxDepth) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
        }
        Sender<Void> schedule = receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return () -> Trampoline.run(() -> completeOn(receiver), maxDepth);
        };
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

    /** A new run loop, driven by whichever thread calls its {@link RunLoop#run()}. */
    public static RunLoop runLoop() {
        return new RunLoop();
    }

    /**
     * Work scheduled here is {@linkplain Executor#execute submitted} to {@code executor}: any
     * {@code Executor} works, including a virtual-thread-per-task executor. A rejected submission
     * completes the operation with the {@link java.util.concurrent.RejectedExecutionException}.
     */
    public static Scheduler fromExecutor(Executor executor) {
        return new ExecutorScheduler(Objects.requireNonNull(executor, "executor"));
    }

    static void completeOn(Receiver<? super Void> receiver) {
        if (receiver.env().stopToken().stopRequested()) {
            Signals.setStopped(receiver);
        } else {
            Signals.setValue(receiver, null);
        }
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

    /** The operation is the task handed to the executor: one allocation per schedule. */
    private static final class Task implements OperationState, Runnable {
        private final Executor executor;
        private final Receiver<? super Void> receiver;

        Task(Executor executor, Receiver<? super Void> receiver) {
            this.executor = executor;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            try {
                executor.execute(this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(receiver, t);
            }
        }

        @Override
        public void run() {
            completeOn(receiver);
        }
    }
}
