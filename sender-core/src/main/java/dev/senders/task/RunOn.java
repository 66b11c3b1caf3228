package dev.senders.task;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * The sender behind {@link Task.Context#runOn}: {@code schedule(scheduler)}, then the block on the
 * scheduler's thread; its result (or exception) completes the receiver there. Stopped and errors
 * of {@code schedule()} are forwarded. The receiver's env is forwarded to {@code schedule()}.
 */
final class RunOn<U> implements Sender<U> {

    private final Scheduler scheduler;
    private final Callable<? extends U> block;

    RunOn(Scheduler scheduler, Callable<? extends U> block) {
        this.scheduler = scheduler;
        this.block = block;
    }

    @Override
    public OperationState connect(Receiver<? super U> receiver) {
        return new Op<>(scheduler, block, receiver);
    }

    private static final class Op<U> implements OperationState, Receiver<Void> {
        private final Scheduler scheduler;
        private final Callable<? extends U> block;
        private final Receiver<? super U> downstream;
        private boolean started;

        Op(Scheduler scheduler, Callable<? extends U> block, Receiver<? super U> downstream) {
            this.scheduler = scheduler;
            this.block = block;
            this.downstream = downstream;
        }

        @Override
        public void start() {
            if (started) {
                throw ImmediateOperation.startedTwice("Task.Context.runOn's operation");
            }
            started = true;
            OperationState op;
            try {
                op = Connect.schedule(scheduler, this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            op.start();
        }

        @Override
        public void setValue(@Nullable Void ignored) {
            U u;
            try {
                u = block.call();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            Signals.setValue(downstream, u);
        }

        @Override
        public void setError(Throwable error) {
            Signals.setError(downstream, error);
        }

        @Override
        public void setStopped() {
            Signals.setStopped(downstream);
        }

        @Override
        public Env env() {
            return downstream.env();
        }
    }
}
