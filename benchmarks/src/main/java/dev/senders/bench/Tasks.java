package dev.senders.bench;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.concurrent.Executor;

/**
 * The user's own senders, written as a user would write the smallest possible sender: the
 * operation state holds only the receiver (16 bytes with compressed oops), the task body is a
 * static {@code Runnable} shared with the Reactor/RxJava/CompletableFuture variants.
 */
final class Tasks {
    /** Runs {@link Work#INC} inline in {@code start} and completes with {@code null}. */
    static final Sender<Void> INLINE = IncOp::new;
    /** Runs {@link Work#ATOMIC_INC} inline in {@code start} and completes with {@code null}. */
    static final Sender<Void> ATOMIC = AtomicIncOp::new;
    /** Runs {@link Work#INC} and completes with {@code Boolean.TRUE} (for spawnFuture). */
    static final Sender<Boolean> SUPPLY = SupplyOp::new;

    private Tasks() {
    }

    /**
     * A hand-fused "run the task on this executor" sender: the operation is the executor's
     * {@code Runnable} (24 bytes). It is the lower bound of any sender that hops to a pool, used to
     * separate the scope's cost from {@code startsOn}'s.
     */
    static Sender<Void> onExecutor(Executor executor) {
        return receiver -> new ExecutorOp(executor, receiver);
    }

    private static final class ExecutorOp implements OperationState, Runnable {
        private final Executor executor;
        private final Receiver<? super Void> receiver;

        ExecutorOp(Executor executor, Receiver<? super Void> receiver) {
            this.executor = executor;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            try {
                executor.execute(this);
            } catch (RuntimeException e) {
                receiver.setError(e);
            }
        }

        @Override
        public void run() {
            Work.ATOMIC_INC.run();
            receiver.setValue(null);
        }
    }

    private static final class IncOp implements OperationState {
        private final Receiver<? super Void> receiver;

        IncOp(Receiver<? super Void> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            Work.INC.run();
            receiver.setValue(null);
        }
    }

    private static final class AtomicIncOp implements OperationState {
        private final Receiver<? super Void> receiver;

        AtomicIncOp(Receiver<? super Void> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            Work.ATOMIC_INC.run();
            receiver.setValue(null);
        }
    }

    private static final class SupplyOp implements OperationState {
        private final Receiver<? super Boolean> receiver;

        SupplyOp(Receiver<? super Boolean> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            Work.INC.run();
            receiver.setValue(Boolean.TRUE);
        }
    }
}
