package dev.senders.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.flow.FlowSenders;
import dev.senders.reactor.ReactorSenders;
import dev.senders.rxjava3.RxSenders;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * The required publisher rules that the TCK's {@code PublisherVerification} skips for our
 * publishers because its scenarios ask for 3 to 20 elements ("Unable to run this test, as required
 * elements nr: N is higher than supported by given producer: 1"), checked here with the one
 * element a sender has: §1.1, §1.2, §1.3, §3.3, §3.6, §3.7, §3.9, §3.12, §3.13, §3.17. Every
 * publisher the library makes from a sender is checked, each subscribed through the plain
 * Reactive Streams {@link Subscriber} interface, as the TCK does (RxJava and Reactor then put
 * their own strict subscriber in between; the Flow publisher goes through {@link FlowAdapters}).
 * The sender is a test-controlled one, so the order of completion, request and cancel is chosen
 * by each test, and the stop request that {@code cancel} must cause is observable.
 */
class OneElementPublisherRulesTest {

    /** A publisher factory under test. */
    record Adapter(String name, Function<Sender<Integer>, Publisher<Integer>> fn)
            implements Function<Sender<Integer>, Publisher<Integer>> {
        @Override
        public Publisher<Integer> apply(Sender<Integer> s) {
            return fn.apply(s);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Adapter> publishers() {
        return Stream.of(
                new Adapter("RxSenders.toFlowable", RxSenders::toFlowable),
                new Adapter("ReactorSenders.toMono", ReactorSenders::toMono),
                new Adapter("ReactorSenders.toFlux", ReactorSenders::toFlux),
                new Adapter("toMono(fromMono(m).then(f)), one operator", s -> ReactorSenders.toMono(
                        ReactorSenders.fromMono(ReactorSenders.toMono(s)).then(v -> v))),
                new Adapter("FlowSenders.toPublisher", s -> FlowAdapters.toPublisher(FlowSenders.toPublisher(s))));
    }

    /** A sender whose completion the test makes. */
    static final class ManualSender implements Sender<Integer> {
        final List<Receiver<? super Integer>> started = new CopyOnWriteArrayList<>();

        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            return () -> started.add(r);
        }

        Receiver<? super Integer> receiver() {
            assertEquals(1, started.size(), "the publisher started the sender once");
            return started.get(0);
        }
    }

    /** Records signals; requests what the test says. */
    static class Recording implements Subscriber<Integer> {
        final List<String> signals = new CopyOnWriteArrayList<>();
        final CountDownLatch terminated = new CountDownLatch(1);
        final AtomicInteger inside = new AtomicInteger();
        volatile Subscription subscription;
        volatile Throwable error;

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
        }

        @Override
        public void onNext(Integer t) {
            enter();
            signals.add("onNext(" + t + ")");
            inside.decrementAndGet();
        }

        @Override
        public void onError(Throwable t) {
            enter();
            error = t;
            signals.add("onError(" + t.getClass().getSimpleName() + ")");
            inside.decrementAndGet();
            terminated.countDown();
        }

        @Override
        public void onComplete() {
            enter();
            signals.add("onComplete");
            inside.decrementAndGet();
            terminated.countDown();
        }

        private void enter() {
            if (inside.getAndIncrement() != 0) {
                signals.add("OVERLAP (§1.3)");
            }
        }

        void awaitTerminated() throws InterruptedException {
            assertTrue(terminated.await(10, TimeUnit.SECONDS), () -> "hang guard; signals " + signals);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_1_1_valueWaitsForRequest(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        sender.receiver().setValue(1);
        assertEquals(List.of(), sub.signals, "no onNext before request (§1.1)");
        sub.subscription.request(1);
        assertEquals(List.of("onNext(1)", "onComplete"), sub.signals);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_1_2_fewerThanRequestedThenOnComplete(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        sub.subscription.request(3);
        sender.receiver().setValue(1);
        assertEquals(List.of("onNext(1)", "onComplete"), sub.signals);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_1_3_requestRacingCompletionSignalsSeriallyOnce(Function<Sender<Integer>, Publisher<Integer>> adapt)
            throws Exception {
        for (int i = 0; i < 1_000; i++) {
            ManualSender sender = new ManualSender();
            Recording sub = new Recording();
            adapt.apply(sender).subscribe(sub);
            Receiver<? super Integer> r = sender.receiver();
            Harness.POOL.execute(() -> r.setValue(1));
            sub.subscription.request(1);
            sub.awaitTerminated();
            assertEquals(List.of("onNext(1)", "onComplete"), sub.signals, "run " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_3_3_requestFromOnNextAndOnSubscribeIsBounded(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        Recording sub = new Recording() {
            @Override
            public void onSubscribe(Subscription s) {
                super.onSubscribe(s);
                s.request(1); // §3.2: synchronous request from onSubscribe
            }

            @Override
            public void onNext(Integer t) {
                super.onNext(t);
                subscription.request(1); // §3.3: must not recurse unboundedly
            }
        };
        adapt.apply(dev.senders.Senders.just(1)).subscribe(sub);
        assertEquals(List.of("onNext(1)", "onComplete"), sub.signals);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_3_6_and_3_7_afterCancelRequestAndCancelAreNoOps(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        sub.subscription.cancel();
        sub.subscription.request(1);
        sub.subscription.cancel();
        sender.receiver().setValue(1);
        assertEquals(List.of(), sub.signals);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_3_9_requestZeroOrNegativeSignalsIllegalArgumentException(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        for (long n : new long[] {0L, -1L, Long.MIN_VALUE}) {
            ManualSender sender = new ManualSender();
            Recording sub = new Recording();
            adapt.apply(sender).subscribe(sub);
            sub.subscription.request(n);
            assertEquals(List.of("onError(IllegalArgumentException)"), sub.signals, "request(" + n + ")");
            assertTrue(sender.receiver().env().stopToken().stopRequested(),
                    "the subscription is over, so the sender is asked to stop");
            sender.receiver().setValue(1);
            assertEquals(1, sub.signals.size(), "§1.7: nothing after onError");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_3_12_cancelStopsTheSenderAndTheSignals(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        sub.subscription.request(1);
        Receiver<? super Integer> r = sender.receiver();
        sub.subscription.cancel();
        assertTrue(r.env().stopToken().stopRequested(), "cancel = stop request on the sender's token");
        r.setStopped();
        assertEquals(List.of(), sub.signals, "the stopped answer to our own cancel is not signalled");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_3_13_cancelDropsTheReferenceToTheSubscriber(Function<Sender<Integer>, Publisher<Integer>> adapt)
            throws InterruptedException {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        WeakReference<Recording> ref = new WeakReference<>(sub);
        sub.subscription.cancel();
        sub = null;
        // The sender still holds its receiver (the publisher's operation); that must not keep the
        // subscriber alive. (Holding the Subscription would: RxJava's and Reactor's strict
        // subscribers are the Subscription and keep their downstream in a final field.)
        for (int i = 0; i < 50 && ref.get() != null; i++) { // bounded retries, not a time assertion
            System.gc();
            Thread.sleep(10);
        }
        assertNull(ref.get(), "the subscriber is still reachable from the cancelled subscription");
        assertEquals(1, sender.started.size()); // keeps the operation reachable up to here
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void rule_3_17_demandUpToAndBeyondLongMaxValue(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        sub.subscription.request(Long.MAX_VALUE);
        sub.subscription.request(Long.MAX_VALUE); // cumulative demand beyond Long.MAX_VALUE: no error
        sender.receiver().setValue(1);
        assertEquals(List.of("onNext(1)", "onComplete"), sub.signals);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishers")
    void boundary_stoppedIsOnErrorCancellationException(Function<Sender<Integer>, Publisher<Integer>> adapt) {
        ManualSender sender = new ManualSender();
        Recording sub = new Recording();
        adapt.apply(sender).subscribe(sub);
        sender.receiver().setStopped();
        assertEquals(List.of("onError(CancellationException)"), sub.signals);
        assertInstanceOf(java.util.concurrent.CancellationException.class, sub.error);
    }
}
