package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.util.context.Context;

/**
 * The stop token a toMono subscription gives its sender is the subscription itself:
 * it must keep every rule of a stop token (StopToken/StopCallback contracts), whatever the number
 * of registrations.
 */
class SubscriptionStopTest {

    /** A sender that hands its receiver to the test and never completes on its own. */
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
    void cancelRunsEveryRegisteredCallbackOnceTheFirstInTheSlotTheOthersInTheOverflow() {
        Holder h = new Holder();
        Disposable d = ReactorSenders.toMono(h).subscribe();
        StopToken t = h.token();
        assertTrue(t.stopPossible());
        List<String> ran = new ArrayList<>();
        t.onStop(() -> ran.add("first"));
        t.onStop(() -> ran.add("second"));
        t.onStop(() -> ran.add("third"));
        assertFalse(t.stopRequested());
        d.dispose();
        d.dispose(); // idempotent
        assertTrue(t.stopRequested());
        ran.sort(null);
        assertEquals(List.of("first", "second", "third"), ran);
    }

    @Test
    void aClosedRegistrationNeverRunsAndTheNextOneStillDoes() {
        Holder h = new Holder();
        Disposable d = ReactorSenders.toMono(h).subscribe();
        StopToken t = h.token();
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        StopCallback c1 = t.onStop(first::incrementAndGet);
        c1.close();
        c1.close(); // idempotent
        StopCallback c2 = t.onStop(second::incrementAndGet);
        d.dispose();
        c2.close(); // after it ran: returns at once
        assertEquals(0, first.get());
        assertEquals(1, second.get());
    }

    @Test
    void aCallbackRegisteredAfterTheCancelRunsInline() {
        Holder h = new Holder();
        ReactorSenders.toMono(h).subscribe().dispose();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        StopCallback c = h.token().onStop(() -> ranOn.set(Thread.currentThread()));
        assertSame(Thread.currentThread(), ranOn.get());
        c.close();
    }

    @Test
    void aCallbackMayCloseItsOwnRegistrationWhileRunning() {
        Holder h = new Holder();
        Disposable d = ReactorSenders.toMono(h).subscribe();
        AtomicReference<StopCallback> self = new AtomicReference<>();
        AtomicInteger runs = new AtomicInteger();
        self.set(h.token().onStop(() -> {
            runs.incrementAndGet();
            self.get().close(); // must not wait for itself
        }));
        d.dispose();
        assertEquals(1, runs.get());
    }

    @Test
    void theEnvAnswersTheStopTokenTheContextAndTheOuterEnvsQueries() {
        Query<String> tenant = Query.named("tenant");
        Holder h = new Holder();
        // A sender -> Mono -> sender sandwich: the outer env rides in on the context.
        dev.senders.testkit.TestReceiver<String> outer =
                dev.senders.testkit.TestReceiver.withStopSource(Env.of(tenant, "acme"));
        ReactorSenders.fromMono(ReactorSenders.toMono(h).contextWrite(Context.of("k", "v"))).connect(outer).start();
        Env env = h.receiver.get().env();
        assertEquals("acme", env.get(tenant));
        assertEquals("v", env.get(ReactorSenders.CONTEXT).get("k"));
        assertSame(env.stopToken(), env.get(Query.STOP_TOKEN));
        outer.requestStop();
        assertTrue(env.stopToken().stopRequested());
    }
}
