package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sender the test completes by hand: it captures its receiver at start and records stop
 * requests on the receiver's token (without completing on stop unless asked to).
 */
final class ManualSender<T> implements Sender<T> {
    final boolean stopCompletesStopped;
    volatile Receiver<? super T> receiver;
    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger stopsSeen = new AtomicInteger();
    volatile StopCallback callback;

    ManualSender(boolean stopCompletesStopped) {
        this.stopCompletesStopped = stopCompletesStopped;
    }

    @Override
    public OperationState connect(Receiver<? super T> r) {
        connects.incrementAndGet();
        return () -> {
            starts.incrementAndGet();
            receiver = r;
            callback = r.env().stopToken().onStop(() -> {
                stopsSeen.incrementAndGet();
                if (stopCompletesStopped) {
                    r.setStopped();
                }
            });
        };
    }
}
