package dev.senders.reactor;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A sender the test completes by hand: it keeps the receiver of every started operation. */
final class ManualSender<T> implements Sender<T> {

    final AtomicInteger connects = new AtomicInteger();
    final List<Receiver<? super T>> started = new CopyOnWriteArrayList<>();

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        connects.incrementAndGet();
        return () -> started.add(receiver);
    }

    Receiver<? super T> last() {
        return started.get(started.size() - 1);
    }
}
