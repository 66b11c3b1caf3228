package dev.senders;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test sender completed by the test itself. Counts connects and starts, remembers the last
 * started receiver, records whether its token's stop fired and, if {@code stopOnRequest}, then
 * completes with {@code setStopped()} from the stop callback.
 */
final class ManualSender<T> implements Sender<T> {

    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger stopsSeen = new AtomicInteger();
    private final boolean stopOnRequest;
    volatile Receiver<? super T> receiver;

    ManualSender(boolean stopOnRequest) {
        this.stopOnRequest = stopOnRequest;
    }

    @Override
    public OperationState connect(Receiver<? super T> r) {
        connects.incrementAndGet();
        return () -> {
            starts.incrementAndGet();
            receiver = r;
            r.env().stopToken().onStop(() -> {
                stopsSeen.incrementAndGet();
                if (stopOnRequest) {
                    r.setStopped();
                }
            });
        };
    }

    void complete(T value) {
        receiver.setValue(value);
    }

    void fail(Throwable e) {
        receiver.setError(e);
    }
}
