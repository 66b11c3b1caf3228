package dev.senders.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.ProtocolViolationException;
import dev.senders.Senders;
import dev.senders.flow.FlowTestSupport.ManualPublisher;
import dev.senders.testkit.OverlappingCompletePublisher;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link FlowSenders#fromPublisher} and {@link FlowSenders#fromPublisherList}: Flow side to sender side. */
class FromPublisherTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    FromPublisherTest() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    @DisplayName("fromPublisher: requests 1 (§2.1), completes with the first element, then cancels")
    void firstElementThenCancel() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
        assertEquals(List.of(1L), p.requests);
        p.last().onNext(42);
        assertEquals(List.of(TestReceiver.Kind.VALUE), rec.kinds());
        assertEquals(42, rec.value());
        assertEquals(1, p.cancels);
        p.last().onComplete(); // §2.8/§3.12: after our cancel, legal and ignored
        assertEquals(List.of(TestReceiver.Kind.VALUE), rec.kinds());
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    @Test
    @DisplayName("fromPublisher: an empty publisher is setValue(null)")
    void emptyIsNull() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
        p.last().onComplete();
        assertEquals(List.of(TestReceiver.Kind.VALUE), rec.kinds());
        assertNull(rec.value());
    }

    @Test
    @DisplayName("onError(e) is setError(e); an upstream CancellationException is setStopped()")
    void errorsAndCancellation() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
        IllegalStateException boom = new IllegalStateException("boom");
        p.last().onError(boom);
        assertEquals(List.of(TestReceiver.Kind.ERROR), rec.kinds());
        assertSame(boom, rec.error());

        TestReceiver<Integer> rec2 = TestReceiver.start(FlowSenders.fromPublisher(p));
        p.last().onError(new CancellationException());
        assertEquals(List.of(TestReceiver.Kind.STOPPED), rec2.kinds());
    }

    @Test
    @DisplayName("a stop request cancels the subscription, then completes stopped; later signals are ignored")
    void stopCancels() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<List<Integer>> rec = TestReceiver.start(FlowSenders.fromPublisherList(p));
        p.last().onNext(1);
        rec.requestStop();
        assertEquals(1, p.cancels);
        assertEquals(List.of(TestReceiver.Kind.STOPPED), rec.kinds());
        p.last().onNext(2);
        p.last().onComplete();
        assertEquals(List.of(TestReceiver.Kind.STOPPED), rec.kinds());
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    @Test
    @DisplayName("a stop already requested at start completes stopped without subscribing")
    void stopBeforeStart() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.withStopSource();
        rec.requestStop();
        FlowSenders.fromPublisher(p).connect(rec).start();
        assertEquals(List.of(TestReceiver.Kind.STOPPED), rec.kinds());
        assertTrue(p.subscribers.isEmpty());
    }

    @Test
    @DisplayName("§1.1 an element beyond the demand of 1 is reported even after our own cancel; the receiver keeps the first")
    void excessBeyondDemandIsReportedAfterOwnCancel() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
        p.last().onNext(1);
        p.last().onNext(2); // requested 1 in total: a §1.1 violation, whether or not our cancel arrived
        assertEquals(List.of(TestReceiver.Kind.VALUE), rec.kinds());
        assertEquals(1, rec.value());
        assertEquals(1, dropped.size(), dropped::toString);
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertTrue(dropped.get(0).getMessage().contains("§1.1"), dropped.get(0).getMessage());
    }

    @Test
    @DisplayName("§2.8 elements and onComplete after our own cancel, within demand, are ignored, not reported")
    void signalsWithinDemandAfterOwnCancelAreIgnored() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<List<Integer>> rec = TestReceiver.start(FlowSenders.fromPublisherList(p));
        p.last().onNext(1);
        rec.requestStop();
        p.last().onNext(2);
        p.last().onComplete();
        assertEquals(List.of(TestReceiver.Kind.STOPPED), rec.kinds());
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    @Test
    @DisplayName("§1.9 onNext before onSubscribe: setError(ProtocolViolationException)")
    void onNextBeforeOnSubscribe() {
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(sub -> sub.onNext(1)));
        assertEquals(List.of(TestReceiver.Kind.ERROR), rec.kinds());
        assertInstanceOf(ProtocolViolationException.class, rec.error());
    }

    @Test
    @DisplayName("fromPublisherList requests unbounded (§3.17) and collects every element")
    void listRequestsUnbounded() {
        TestReceiver<List<Integer>> rec = TestReceiver.start(FlowSenders.fromPublisherList(sub -> {
            sub.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {}
            });
            sub.onNext(1);
            sub.onNext(2);
            sub.onComplete();
        }));
        assertEquals(List.of(TestReceiver.Kind.VALUE), rec.kinds());
        assertEquals(List.of(1, 2), rec.value());
    }

    @Test
    @DisplayName("§2.5 a second onSubscribe is cancelled and reported")
    void secondOnSubscribe() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
        boolean[] cancelled = {false};
        p.last().onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                throw new AssertionError("§2.5: no request on a rejected subscription");
            }

            @Override
            public void cancel() {
                cancelled[0] = true;
            }
        });
        assertTrue(cancelled[0]);
        assertEquals(1, dropped.size());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertTrue(rec.kinds().isEmpty());
    }

    @Test
    @DisplayName("§2.13 null element, error or subscription: NullPointerException to the caller, and the receiver fails")
    void nullSignals() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
        assertThrows(NullPointerException.class, () -> p.last().onNext(null));
        assertEquals(List.of(TestReceiver.Kind.ERROR), rec.kinds());
        assertInstanceOf(NullPointerException.class, rec.error());

        TestReceiver<Integer> rec2 = TestReceiver.start(FlowSenders.fromPublisher(p));
        assertThrows(NullPointerException.class, () -> p.last().onError(null));
        assertEquals(List.of(TestReceiver.Kind.ERROR), rec2.kinds());

        TestReceiver<Integer> rec3 = TestReceiver.start(FlowSenders.fromPublisher(p));
        assertThrows(NullPointerException.class, () -> p.last().onSubscribe(null));
        assertEquals(List.of(TestReceiver.Kind.ERROR), rec3.kinds()); // never left waiting
        assertInstanceOf(NullPointerException.class, rec3.error());
        assertThrows(NullPointerException.class, () -> FlowSenders.fromPublisher(null));
        assertThrows(NullPointerException.class, () -> FlowSenders.fromPublisherList(null));
    }

    @Test
    @DisplayName("§1.7 a signal after onComplete is reported to Hooks.onErrorDropped")
    void signalAfterTerminal() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        TestReceiver<List<Integer>> rec = TestReceiver.start(FlowSenders.fromPublisherList(p));
        p.last().onComplete();
        p.last().onNext(1);
        p.last().onComplete();
        assertEquals(List.of(TestReceiver.Kind.VALUE), rec.kinds());
        assertEquals(2, dropped.size());
    }

    @Test
    @DisplayName("a publisher whose subscribe throws fails the receiver with what it threw")
    void subscribeThrows() {
        IllegalStateException boom = new IllegalStateException("subscribe");
        TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(sub -> {
            throw boom;
        }));
        assertEquals(List.of(TestReceiver.Kind.ERROR), rec.kinds());
        assertSame(boom, rec.error());
    }

    @Test
    @DisplayName("fromPublisherList over the JDK's SubmissionPublisher: every element, in order, on its thread")
    @SuppressWarnings("try") // p.close() inside the block is the completion signal under test
    void listFromSubmissionPublisher() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (SubmissionPublisher<Integer> p = new SubmissionPublisher<>(pool, 4)) {
            TestReceiver<List<Integer>> rec = TestReceiver.start(FlowSenders.fromPublisherList(p));
            for (int i = 0; i < 100; i++) {
                p.submit(i);
            }
            p.close();
            rec.await();
            assertEquals(100, rec.value().size());
            for (int i = 0; i < 100; i++) {
                assertEquals(i, rec.value().get(i));
            }
            assertThrows(UnsupportedOperationException.class, () -> rec.value().add(1));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("fromPublisherList: empty publisher is an empty list")
    void emptyList() {
        assertEquals(List.of(), Senders.syncWait(FlowSenders.fromPublisherList(FlowSenders.toPublisher(Senders.<Integer>just(null)))));
    }

    @Test
    @DisplayName("multi-shot: each start subscribes anew")
    void multiShot() {
        ManualPublisher<Integer> p = new ManualPublisher<>();
        var sender = FlowSenders.fromPublisher(p);
        TestReceiver.start(sender);
        TestReceiver.start(sender);
        assertEquals(2, p.subscribers.size());
    }

    @Test
    @DisplayName("race of stop and onNext: exactly one completion, at most one cancel per run (5,000 runs)")
    void stopRacesOnNext() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 5_000; i++) {
                ManualPublisher<Integer> p = new ManualPublisher<>();
                TestReceiver<Integer> rec = TestReceiver.start(FlowSenders.fromPublisher(p));
                CountDownLatch sent = new CountDownLatch(1);
                Flow.Subscriber<? super Integer> s = p.last();
                pool.execute(() -> {
                    s.onNext(1);
                    sent.countDown();
                });
                rec.requestStop();
                assertTrue(sent.await(10, TimeUnit.SECONDS), "hang guard");
                rec.await();
                assertEquals(1, rec.kinds().size(), rec.kinds()::toString);
                assertTrue(rec.kinds().get(0) == TestReceiver.Kind.VALUE || rec.kinds().get(0) == TestReceiver.Kind.STOPPED);
                assertEquals(1, p.cancels);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(dropped.isEmpty(), dropped::toString);
    }

    @Test
    @DisplayName("§1.3 broken (onComplete on another thread while onNext runs): every mode completes the receiver once, or with a ProtocolViolationException")
    void serialSignalsRuleBroken_everyModeCompletesTheReceiverOnce() {
        OverlappingCompletePublisher.checkEveryRound(1, FlowSenders::fromPublisher);
        OverlappingCompletePublisher.checkEveryRound(Integer.MAX_VALUE, FlowSenders::fromPublisherList);
    }
}
