package dev.senders.bench;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;

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
