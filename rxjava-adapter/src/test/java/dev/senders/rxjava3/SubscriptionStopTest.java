package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The stop token a toSingle/toFlowable subscription gives its sender is the subscription itself
 * It keeps every rule of a stop token whatever the number of registrations.
 */
class SubscriptionStopTest {

    static final class Holder implements Sender<String> {
        final AtomicReference<Receiver<? super String>> receiver = new AtomicReference<>();

        @Override
        public OperationState connect(Receiver<? super String> r) {
            return () -> receiver.set(r);
        }

        StopToken token() {
            return receiver.get().env().stopToken();
        }
    }

    @Test
    void disposeRunsEveryRegisteredCallbackOnceAndLateOnesInline() {
        Holder h = new Holder();
        Disposable d = RxSenders.toSingle(h).subscribe(v -> { }, e -> { });
        StopToken t = h.token();
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger closedRuns = new AtomicInteger();
        StopCallback closed = t.onStop(closedRuns::incrementAndGet); // the slot, closed before the stop
        t.onStop(runs::incrementAndGet);
        t.onStop(runs::incrementAndGet);
        closed.close();
        d.dispose();
        assertTrue(t.stopRequested());
        assertEquals(2, runs.get());
        assertEquals(0, closedRuns.get());
        AtomicReference<Thread> late = new AtomicReference<>();
        t.onStop(() -> late.set(Thread.currentThread()));
        assertSame(Thread.currentThread(), late.get());
        assertSame(t, h.receiver.get().env().get(Query.STOP_TOKEN));
    }

    @Test
    void cancelOfAFlowableSubscriptionRequestsStop() {
        Holder h = new Holder();
        var ts = RxSenders.toFlowable(h).test(0);
        AtomicInteger runs = new AtomicInteger();
        h.token().onStop(runs::incrementAndGet);
        ts.cancel();
        assertEquals(1, runs.get());
    }
}
