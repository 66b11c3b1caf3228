package dev.senders.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.flow.FlowTestSupport.Manual;
import dev.senders.flow.FlowTestSupport.Sub;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link FlowSenders#toPublisher}: the boundary table of docs/design.md, sender side to Flow side. */
class ToPublisherTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    ToPublisherTest() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    @DisplayName("§1.1 setValue(v) is onNext(v) + onComplete, only after request(n)")
    void valueWaitsForDemand() {
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(Senders.just(7)).subscribe(sub);
        assertEquals(List.of("onSubscribe"), sub.signals);
        sub.subscription.request(1);
        assertEquals(List.of("onSubscribe", "onNext(7)", "onComplete"), sub.signals);
    }

    @Test
    @DisplayName("§1.1 demand first: the completing thread emits the value")
    void demandBeforeValue() {
        Manual<Integer> manual = new Manual<>();
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(manual).subscribe(sub);
        sub.subscription.request(Long.MAX_VALUE);
        assertEquals(List.of("onSubscribe"), sub.signals);
        manual.last().setValue(3);
        assertEquals(List.of("onSubscribe", "onNext(3)", "onComplete"), sub.signals);
    }

    @Test
    @DisplayName("setValue(null) is an empty completion, needing no demand (§1.2, §1.5)")
    void nullValueIsEmptyCompletion() {
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(Senders.<Integer>just(null)).subscribe(sub);
        assertEquals(List.of("onSubscribe", "onComplete"), sub.signals);
    }

    @Test
    @DisplayName("setError(e) is onError(e), needing no demand (§1.4)")
    void errorIsOnError() {
        IllegalStateException boom = new IllegalStateException("boom");
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(Senders.<Integer>justError(boom)).subscribe(sub);
        assertEquals(List.of("onSubscribe", "onError(IllegalStateException)"), sub.signals);
        assertSame(boom, sub.error);
    }

    @Test
    @DisplayName("setStopped() not caused by the subscriber is onError(CancellationException)")
    void stoppedIsCancellationException() {
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(Senders.<Integer>justStopped()).subscribe(sub);
        assertEquals(List.of("onSubscribe", "onError(CancellationException)"), sub.signals);
        assertInstanceOf(CancellationException.class, sub.error);
    }

    @Test
    @DisplayName("cancel() requests stop on the operation's own token; the stopped completion that follows is not signalled (§3.7)")
    void cancelRequestsStopAndStaysSilent() {
        Manual<Integer> manual = new Manual<>();
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(manual).subscribe(sub);
        Receiver<? super Integer> r = manual.last();
        assertFalse(r.env().stopToken().stopRequested());
        sub.subscription.cancel();
        assertTrue(r.env().stopToken().stopRequested());
        r.setStopped();
        sub.subscription.request(1); // §3.6: a no-op after cancel
        assertEquals(List.of("onSubscribe"), sub.signals);
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    @Test
    @DisplayName("an error after cancel is undeliverable: Hooks.onErrorDropped")
    void errorAfterCancelIsDropped() {
        Manual<Integer> manual = new Manual<>();
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(manual).subscribe(sub);
        sub.subscription.cancel();
        IllegalStateException late = new IllegalStateException("late");
        manual.last().setError(late);
        assertEquals(List.of("onSubscribe"), sub.signals);
        assertEquals(List.of(late), dropped);
    }

    @Test
    @DisplayName("§3.9 request(0) and request(-1) are onError(IllegalArgumentException), and stop the sender")
    void nonPositiveRequestIsIllegalArgument() {
        for (long n : new long[] {0, -1, Long.MIN_VALUE}) {
            Manual<Integer> manual = new Manual<>();
            Sub<Integer> sub = new Sub<>();
            FlowSenders.toPublisher(manual).subscribe(sub);
            sub.subscription.request(n);
            assertEquals(List.of("onSubscribe", "onError(IllegalArgumentException)"), sub.signals);
            assertTrue(manual.last().env().stopToken().stopRequested());
            manual.last().setValue(1); // the sender's late answer goes nowhere
            assertEquals(2, sub.signals.size());
        }
    }

    @Test
    @DisplayName("cold: each subscribe connects and starts the sender anew")
    void eachSubscriptionConnectsAnew() {
        Manual<Integer> manual = new Manual<>();
        Flow.Publisher<Integer> p = FlowSenders.toPublisher(manual);
        assertEquals(0, manual.connects);
        p.subscribe(new Sub<>());
        p.subscribe(new Sub<>());
        assertEquals(2, manual.connects);
        assertEquals(2, manual.started.size());
    }

    @Test
    @DisplayName("cancel inside onSubscribe: the operation is dropped unstarted")
    void cancelInOnSubscribeNeverStarts() {
        Manual<Integer> manual = new Manual<>();
        FlowSenders.toPublisher(manual).subscribe(new Sub<Integer>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                super.onSubscribe(s);
                s.cancel();
            }
        });
        assertEquals(1, manual.connects);
        assertEquals(0, manual.started.size());
    }

    @Test
    @DisplayName("§1.9 subscribe(null) throws NullPointerException; toPublisher(null) too")
    void nulls() {
        assertThrows(NullPointerException.class, () -> FlowSenders.toPublisher(Senders.just(1)).subscribe(null));
        assertThrows(NullPointerException.class, () -> FlowSenders.toPublisher(null));
    }

    @Test
    @DisplayName("a sender whose connect throws: onSubscribe, then onError with what it threw (§1.9)")
    void connectThrows() {
        IllegalStateException boom = new IllegalStateException("connect");
        Sender<Integer> bad = r -> {
            throw boom;
        };
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(bad).subscribe(sub);
        assertEquals(List.of("onSubscribe", "onError(IllegalStateException)"), sub.signals);
        assertSame(boom, sub.error);
    }

    @Test
    @DisplayName("P2300: a second completion of the sender is reported, never signalled (§1.7)")
    void secondCompletionIsReported() {
        Manual<Integer> manual = new Manual<>();
        Sub<Integer> sub = new Sub<>();
        FlowSenders.toPublisher(manual).subscribe(sub);
        sub.subscription.request(1);
        manual.last().setValue(1);
        manual.last().setError(new IllegalStateException("second"));
        assertEquals(List.of("onSubscribe", "onNext(1)", "onComplete"), sub.signals);
        assertEquals(1, dropped.size());
        assertInstanceOf(dev.senders.ProtocolViolationException.class, dropped.get(0));
    }

    @Test
    @DisplayName("§2.13 a subscriber that throws from onNext is considered cancelled: no onComplete, error dropped")
    void throwingOnNext() {
        IllegalStateException boom = new IllegalStateException("onNext");
        Sub<Integer> sub = new Sub<>() {
            @Override
            public void onNext(Integer item) {
                super.onNext(item);
                throw boom;
            }
        };
        FlowSenders.toPublisher(Senders.just(1)).subscribe(sub);
        sub.subscription.request(1);
        assertEquals(List.of("onSubscribe", "onNext(1)"), sub.signals);
        assertEquals(List.of(boom), dropped);
    }

    @Test
    @DisplayName("§1.3 race of request and completion: exactly onNext then onComplete, serially (2,000 runs)")
    void requestRacesCompletion() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 2_000; i++) {
                Manual<Integer> manual = new Manual<>();
                AtomicInteger inside = new AtomicInteger();
                List<String> seen = new CopyOnWriteArrayList<>();
                CountDownLatch done = new CountDownLatch(1);
                Flow.Subscriber<Integer> sub = new Flow.Subscriber<>() {
                    Flow.Subscription s;

                    @Override
                    public void onSubscribe(Flow.Subscription s) {
                        this.s = s;
                    }

                    @Override
                    public void onNext(Integer item) {
                        if (inside.getAndIncrement() != 0) {
                            seen.add("overlap");
                        }
                        seen.add("onNext(" + item + ")");
                        inside.decrementAndGet();
                    }

                    @Override
                    public void onError(Throwable t) {
                        seen.add("onError");
                        done.countDown();
                    }

                    @Override
                    public void onComplete() {
                        if (inside.get() != 0) {
                            seen.add("overlap");
                        }
                        seen.add("onComplete");
                        done.countDown();
                    }
                };
                Flow.Subscription[] s = new Flow.Subscription[1];
                FlowSenders.toPublisher(manual).subscribe(new Flow.Subscriber<Integer>() {
                    @Override
                    public void onSubscribe(Flow.Subscription sub2) {
                        s[0] = sub2;
                        sub.onSubscribe(sub2);
                    }

                    @Override
                    public void onNext(Integer item) {
                        sub.onNext(item);
                    }

                    @Override
                    public void onError(Throwable t) {
                        sub.onError(t);
                    }

                    @Override
                    public void onComplete() {
                        sub.onComplete();
                    }
                });
                Receiver<? super Integer> r = manual.last();
                Integer k = i;
                pool.execute(() -> r.setValue(k));
                s[0].request(1);
                assertTrue(done.await(10, TimeUnit.SECONDS), "hang guard");
                assertEquals(List.of("onNext(" + i2(i) + ")", "onComplete"), seen);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    private static Integer i2(int i) {
        return i;
    }

    @Test
    @DisplayName("race of cancel and stopped completion: silence or onError(CancellationException), nothing dropped (2,000 runs)")
    void cancelRacesCompletion() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 2_000; i++) {
                Manual<Integer> manual = new Manual<>();
                Sub<Integer> sub = new Sub<>();
                FlowSenders.toPublisher(manual).subscribe(sub);
                sub.subscription.request(1);
                Receiver<? super Integer> r = manual.last();
                CountDownLatch completed = new CountDownLatch(1);
                pool.execute(() -> {
                    r.setStopped();
                    completed.countDown();
                });
                sub.subscription.cancel();
                assertTrue(completed.await(10, TimeUnit.SECONDS), "hang guard");
                // either nothing (cancel first) or the stopped completion as CancellationException
                assertTrue(sub.signals.equals(List.of("onSubscribe"))
                        || sub.signals.equals(List.of("onSubscribe", "onError(CancellationException)")), sub.signals::toString);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    @Test
    @DisplayName("round trip: fromPublisher(toPublisher(s)) keeps value, empty (null), error and stopped")
    void roundTrip() throws Exception {
        assertEquals(5, Senders.syncWait(FlowSenders.fromPublisher(FlowSenders.toPublisher(Senders.just(5)))));
        assertNull(Senders.syncWait(FlowSenders.fromPublisher(FlowSenders.toPublisher(Senders.<Integer>just(null)))));
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Senders.syncWait(
                FlowSenders.fromPublisher(FlowSenders.toPublisher(Senders.<Integer>justError(boom))))));
        TestReceiver<Integer> rec = TestReceiver.start(
                FlowSenders.fromPublisher(FlowSenders.toPublisher(Senders.<Integer>justStopped())));
        rec.await();
        assertEquals(List.of(TestReceiver.Kind.STOPPED), rec.kinds());
    }
}
