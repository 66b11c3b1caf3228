package dev.senders.scope;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A multi-shot sender completed by the test: records connects and starts. */
final class ManualSender<T> implements Sender<T> {

    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger starts = new AtomicInteger();
    final List<Op> started = new CopyOnWriteArrayList<>();

    final class Op implements OperationState {
        final Receiver<? super T> receiver;

        Op(Receiver<? super T> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            starts.incrementAndGet();
            started.add(this);
        }

        Env env() {
            return receiver.env();
        }
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        connects.incrementAndGet();
        return new Op(receiver);
    }

    Op last() {
        return started.get(started.size() - 1);
    }

    void completeLast(T value) {
        last().receiver.setValue(value);
    }
}
