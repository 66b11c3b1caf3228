package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.ProtocolViolationException;
import dev.senders.Senders;
import dev.senders.testkit.OverlappingCompletePublisher;
import dev.senders.testkit.TestReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.test.publisher.PublisherProbe;
import reactor.test.publisher.TestPublisher;
import reactor.util.context.Context;

class FromPublisherTest {

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
        Hooks.resetOnNextDropped();
    }

    static <T> TestReceiver<T> run(dev.senders.Sender<T> sender) {
        TestReceiver<T> r = TestReceiver.withStopSource();
        sender.connect(r).start();
        return r;
    }

    @Test
    void fromMono_valueIsSetValue() {
        assertEquals("v", Senders.syncWait(ReactorSenders.fromMono(Mono.just("v"))));
    }

    @Test
    void fromMono_emptyIsSetValueNullAsMonoBlockDoes() {
        TestReceiver<String> r = run(ReactorSenders.fromMono(Mono.<String>empty()));
        assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
        assertNull(r.value());
        assertNull(Mono.empty().block(), "the behaviour we mirror");
    }

    @Test
    void fromMonoOptional_spellsOutEmptiness() {
        assertEquals(Optional.of(3), Senders.syncWait(ReactorSenders.fromMonoOptional(Mono.just(3))));
        assertEquals(Optional.empty(), Senders.syncWait(ReactorSenders.fromMonoOptional(Mono.empty())));
    }

    @Test
    void fromMono_onErrorIsSetError() {
        IllegalStateException boom = new IllegalStateException("boom");
        TestReceiver<Object> r = run(ReactorSenders.fromMono(Mono.error(boom)));
        assertEquals(TestReceiver.Kind.ERROR, r.awaitKind());
        assertSame(boom, r.error());
    }

    @Test
    void fromMono_upstreamCancellationExceptionIsSetStopped() {
        TestReceiver<Object> r = run(ReactorSenders.fromMono(Mono.error(new CancellationException())));
        assertEquals(TestReceiver.Kind.STOPPED, r.awaitKind());
    }

    @Test
    void fromMono_isMultiShot_eachStartSubscribesAnew() {
        AtomicInteger subscriptions = new AtomicInteger();
        dev.senders.Sender<Integer> s = ReactorSenders.fromMono(Mono.fromCallable(subscriptions::incrementAndGet));
        assertEquals(0, subscriptions.get(), "connect has no side effect");
        assertEquals(1, Senders.syncWait(s));
        assertEquals(2, Senders.syncWait(s));
    }

    @Test
    void fromMono_connectWithoutStartSubscribesNothing() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.just("x"));
        ReactorSenders.fromMono(probe.mono()).connect(TestReceiver.withStopSource());
        probe.assertWasNotSubscribed();
    }

    @Test
    void fromPublisher_firstElementThenCancelsUpstream() {
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.range(1, 10));
        assertEquals(1, Senders.syncWait(ReactorSenders.fromPublisher(probe.flux())));
        probe.assertWasCancelled();
        assertEquals(1L, probe.subscribeCount());
    }

    @Test
    void fromPublisher_requestsOneElement() {
        TestPublisher<String> pub = TestPublisher.create();
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pub));
        pub.assertMinRequested(1).assertMaxRequested(1);
        pub.next("a");
        assertEquals("a", r.value());
        pub.assertCancelled();
    }

    @Test
    void fromPublisher_emptyIsSetValueNull() {
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(Flux.<String>empty()));
        assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
        assertNull(r.value());
    }

    @Test
    void fromPublisherSingle_oneElementIsTheValue() {
        assertEquals("only", Senders.syncWait(ReactorSenders.fromPublisherSingle(Flux.just("only"))));
    }

    @Test
    void fromPublisherSingle_secondElementCancelsUpstreamWithIndexOutOfBounds() {
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.range(1, 5));
        TestReceiver<Integer> r = run(ReactorSenders.fromPublisherSingle(probe.flux()));
        assertEquals(TestReceiver.Kind.ERROR, r.awaitKind());
        assertInstanceOf(IndexOutOfBoundsException.class, r.error());
        probe.assertWasCancelled();
    }

    @Test
    void fromPublisherSingle_emptyIsNoSuchElement() {
        assertThrows(NoSuchElementException.class,
                () -> Senders.syncWait(ReactorSenders.fromPublisherSingle(Flux.empty())));
    }

    @Test
    void fromPublisherLast_lastElementOrNullWhenEmpty() {
        assertEquals(5, Senders.syncWait(ReactorSenders.fromPublisherLast(Flux.range(1, 5))));
        assertNull(Senders.syncWait(ReactorSenders.fromPublisherLast(Flux.empty())));
    }

    @Test
    void fromPublisherAll_collectsEveryElement() {
        assertEquals(List.of(1, 2, 3), Senders.syncWait(ReactorSenders.fromPublisherAll(Flux.range(1, 3))));
        assertEquals(List.of(), Senders.syncWait(ReactorSenders.fromPublisherAll(Flux.empty())));
    }

    @Test
    void fromPublisherIgnoreElements_completesWithNullAfterDiscardingElements() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        TestReceiver<Void> r = TestReceiver.withStopSource(Env.of(ReactorSenders.CONTEXT, Operators2.discardInto(discarded)));
        ReactorSenders.fromPublisherIgnoreElements(Flux.range(1, 3)).connect(r).start();
        assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
        assertEquals(List.of(1, 2, 3), discarded);
    }

    @Test
    void fromPublisher_stopRequestedOnReceiversTokenCancelsUpstreamThenSetStopped() {
        TestPublisher<String> pub = TestPublisher.create();
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pub));
        pub.assertWasSubscribed();
        r.requestStop();
        pub.assertCancelled();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertSame(Thread.currentThread(), r.thread(), "stopped is delivered on the stopping thread");
        pub.next("late"); // after cancel: not delivered
        assertEquals(1, r.completions());
    }

    @Test
    void fromPublisher_stopAlreadyRequestedNeverSubscribes() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.just("x"));
        TestReceiver<String> r = TestReceiver.withStopSource();
        r.requestStop();
        ReactorSenders.fromPublisher(probe.mono()).connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        probe.assertWasNotSubscribed();
    }

    @Test
    void fromPublisher_stopCallbackIsDeregisteredBeforeCompletion() {
        TestPublisher<String> pub = TestPublisher.create();
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pub));
        pub.next("a");
        r.requestStop(); // must not reach the finished operation
        assertEquals(TestReceiver.Kind.VALUE, r.kind());
        assertEquals(1, r.completions());
    }

    @Test
    void fromPublisher_errorAfterStopGoesToOperatorsOnErrorDropped() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        TestPublisher<String> pub = TestPublisher.createNoncompliant(TestPublisher.Violation.CLEANUP_ON_TERMINATE);
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pub));
        r.requestStop();
        IllegalStateException late = new IllegalStateException("late");
        pub.error(late);
        assertEquals(List.of(late), dropped);
        assertEquals(1, r.completions());
    }

    @Test
    void rule2_13_nullElementFailsTheReceiverWithNpeAndIsThrownToTheCaller() {
        AtomicReference<Subscriber<? super String>> sub = new AtomicReference<>();
        AtomicBoolean cancelled = new AtomicBoolean();
        Publisher<String> rogue = s -> {
            sub.set(s);
            s.onSubscribe(new FlagSubscription(cancelled));
        };
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(rogue));
        assertThrows(NullPointerException.class, () -> sub.get().onNext(null));
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(NullPointerException.class, r.error());
        assertTrue(cancelled.get());
    }

    @Test
    void rule2_13_nullArgumentsThrowNpe() {
        AtomicReference<Subscriber<? super String>> sub = new AtomicReference<>();
        run(ReactorSenders.fromPublisherAll((Publisher<String>) sub::set));
        assertThrows(NullPointerException.class, () -> sub.get().onSubscribe(null));
        assertThrows(NullPointerException.class, () -> sub.get().onError(null));
    }

    @Test
    void rule2_5_secondOnSubscribeIsCancelledAndReported() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        AtomicBoolean firstCancelled = new AtomicBoolean();
        AtomicBoolean secondCancelled = new AtomicBoolean();
        AtomicReference<Subscriber<? super String>> sub = new AtomicReference<>();
        Publisher<String> rogue = s -> {
            sub.set(s);
            s.onSubscribe(new FlagSubscription(firstCancelled));
            s.onSubscribe(new FlagSubscription(secondCancelled));
        };
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(rogue));
        assertTrue(secondCancelled.get());
        assertFalse(firstCancelled.get());
        assertEquals(1, dropped.size());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        sub.get().onNext("still works on the first");
        assertEquals("still works on the first", r.value());
    }

    @Test
    void rule1_1_onNextWithoutDemandIsAProtocolViolation() {
        List<Object> nextDropped = new CopyOnWriteArrayList<>();
        Hooks.onNextDropped(nextDropped::add);
        // fromPublisher requests 1; this publisher ignores demand and pushes 2 at once
        Publisher<String> pushesTwo = s -> {
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {}
            });
            s.onNext("a");
            s.onNext("b"); // beyond request(1)
        };
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pushesTwo));
        assertEquals("a", r.value());
        assertEquals(1, dropped.size(), "the violation is reported, not silent");
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertEquals(List.of("b"), nextDropped);
    }

    @Test
    void rule1_9_onNextBeforeOnSubscribeFailsTheReceiver() {
        Publisher<String> rogue = s -> s.onNext("a");
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(rogue));
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(ProtocolViolationException.class, r.error());
    }

    @Test
    void rule1_7_signalsAfterTerminationGoToReactorsDroppedHooks() {
        List<Object> nextDropped = new CopyOnWriteArrayList<>();
        List<Throwable> errDropped = new CopyOnWriteArrayList<>();
        Hooks.onNextDropped(nextDropped::add);
        Hooks.onErrorDropped(errDropped::add);
        TestPublisher<Integer> pub = TestPublisher.createNoncompliant(TestPublisher.Violation.CLEANUP_ON_TERMINATE);
        TestReceiver<List<Integer>> r = run(ReactorSenders.fromPublisherAll(pub));
        pub.next(1).complete();
        pub.next(2);
        RuntimeException late = new RuntimeException("late");
        pub.error(late);
        assertEquals(List.of(1), r.value());
        assertEquals(List.of(2), nextDropped);
        assertEquals(2, errDropped.size(), errDropped::toString);
        assertInstanceOf(ProtocolViolationException.class, errDropped.get(0)); // the element after onComplete
        assertTrue(errDropped.get(0).getMessage().contains("§1.7"), errDropped.get(0).getMessage());
        assertSame(late, errDropped.get(1)); // the late error itself: never lost
    }

    @Test
    void fromMono_seesTheReceiversReactorContext() {
        TestReceiver<String> r = TestReceiver.withStopSource(Env.of(ReactorSenders.CONTEXT, Context.of("k", "v")));
        ReactorSenders.fromMono(Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("k")))).connect(r).start();
        assertEquals("v", r.value());
    }

    @Test
    void fromPublisher_subscribeThatThrowsIsSetError() {
        Publisher<String> throwing = s -> {
            throw new IllegalStateException("subscribe failed");
        };
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(throwing));
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertEquals("subscribe failed", r.error().getMessage());
    }

    @Test
    void fromPublisher_receiverThatThrowsFromSetValueGetsSetError() {
        List<Throwable> errors = new ArrayList<>();
        dev.senders.Receiver<String> picky = new dev.senders.Receiver<>() {
            @Override
            public void setValue(String value) {
                throw new IllegalArgumentException("no thanks");
            }

            @Override
            public void setError(Throwable error) {
                errors.add(error);
            }

            @Override
            public void setStopped() {}
        };
        ReactorSenders.fromMono(Mono.just("x")).connect(picky).start();
        assertEquals(1, errors.size());
        assertEquals("no thanks", errors.get(0).getMessage());
    }

    @Test
    void rule3_15_cancelThatThrowsIsReportedAndTheReceiverStillCompletesStopped() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        Publisher<String> pub = s -> s.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {
                throw new IllegalStateException("cancel failed");
            }
        });
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pub));
        r.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(1, dropped.size());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
    }

    @Test
    void rule3_16_requestThatThrowsFailsTheReceiver() {
        Publisher<String> pub = s -> s.onSubscribe(new Subscription() {
            @Override
            public void request(long n) {
                throw new IllegalStateException("request failed");
            }

            @Override
            public void cancel() {}
        });
        TestReceiver<String> r = run(ReactorSenders.fromPublisher(pub));
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertEquals("request failed", r.error().getMessage());
    }

    @Test
    void fromPublisherAll_stopDiscardsWhatWasCollectedEvenIfThePublisherFallsSilent() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        TestPublisher<Integer> pub = TestPublisher.create();
        TestReceiver<List<Integer>> r = TestReceiver.withStopSource(Env.of(ReactorSenders.CONTEXT, Operators2.discardInto(discarded)));
        ReactorSenders.fromPublisherAll(pub).connect(r).start();
        pub.next(1, 2);
        r.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(List.of(1, 2), discarded);
        pub.assertCancelled();
    }

    @Test
    void fromPublisherLast_errorDiscardsTheHeldElement() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        TestReceiver<Integer> r = TestReceiver.withStopSource(Env.of(ReactorSenders.CONTEXT, Operators2.discardInto(discarded)));
        ReactorSenders.fromPublisherLast(Flux.just(1, 2).concatWith(Mono.error(new IllegalStateException("x"))))
                .connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.awaitKind());
        assertEquals(List.of(1, 2), discarded);
    }

    static final class FlagSubscription implements Subscription {
        private final AtomicBoolean cancelled;

        FlagSubscription(AtomicBoolean cancelled) {
            this.cancelled = cancelled;
        }

        @Override
        public void request(long n) {}

        @Override
        public void cancel() {
            cancelled.set(true);
        }
    }

    @Test
    @DisplayName("§1.3 broken (onComplete on another thread while onNext runs): every mode completes the receiver once, or with a ProtocolViolationException")
    void serialSignalsRuleBroken_everyModeCompletesTheReceiverOnce() {
        Hooks.onErrorDropped(e -> { }); // the elements after onComplete are reported there (§1.7)
        Hooks.onNextDropped(v -> { });
        OverlappingCompletePublisher.checkEveryRound(1, p -> ReactorSenders.fromPublisher(FlowAdapters.toPublisher(p)));
        OverlappingCompletePublisher.checkEveryRound(1, p -> ReactorSenders.fromPublisherSingle(FlowAdapters.toPublisher(p)));
        OverlappingCompletePublisher.checkEveryRound(Integer.MAX_VALUE,
                p -> ReactorSenders.fromPublisherLast(FlowAdapters.toPublisher(p)));
        OverlappingCompletePublisher.checkEveryRound(Integer.MAX_VALUE,
                p -> ReactorSenders.fromPublisherAll(FlowAdapters.toPublisher(p)));
        OverlappingCompletePublisher.checkEveryRound(Integer.MAX_VALUE,
                p -> ReactorSenders.fromPublisherIgnoreElements(FlowAdapters.toPublisher(p)));
    }
}
