package dev.senders.reactor.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.senders.testkit.BadInput.assertNpeNaming;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.reactor.ReactorSenders;
import dev.senders.testkit.BadInput;
import dev.senders.testkit.Broken.NullConnectSender;
import dev.senders.testkit.ForeignPublisher;
import dev.senders.testkit.ScopeSiblings;
import dev.senders.testkit.ThrowingSubscriber;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/**
 * Bad input at the Reactor boundary: null arguments, subscribers and receivers that throw, foreign
 * publishers that break the Reactive Streams rules, senders that complete twice. Reactor's
 * {@code Hooks.onErrorDropped}/{@code onNextDropped} and the core's {@code dev.senders.Hooks} are
 * captured around each test. The from* cases run nested in a scope next to a sibling operation
 * ({@link ScopeSiblings#runInScope}) to prove nothing else is lost.
 */
class ReactorBadInputTest {

    final List<Throwable> reactorDropped = new CopyOnWriteArrayList<>();
    final List<Object> nextDropped = new CopyOnWriteArrayList<>();
    final List<Throwable> coreDropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void hooks() {
        Hooks.onErrorDropped(reactorDropped::add);
        Hooks.onNextDropped(nextDropped::add);
        dev.senders.Hooks.setOnErrorDropped(coreDropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
        Hooks.resetOnNextDropped();
        dev.senders.Hooks.resetOnErrorDropped();
    }

    // ------------------------------------------------------------------ null arguments

    @Test
    @DisplayName("fromMono(null): NPE naming 'mono'")
    void fromMono_null() {
        assertNpeNaming("mono", () -> ReactorSenders.fromMono(null));
    }

    @Test
    @DisplayName("fromPublisher(null): NPE naming 'publisher'")
    void fromPublisher_null() {
        assertNpeNaming("publisher", () -> ReactorSenders.fromPublisher(null));
    }

    @Test
    @DisplayName("fromPublisherAll(null): NPE naming 'publisher'")
    void fromPublisherAll_null() {
        assertNpeNaming("publisher", () -> ReactorSenders.fromPublisherAll(null));
    }

    @Test
    @DisplayName("toMono(null): NPE naming 'sender'")
    void toMono_null() {
        assertNpeNaming("sender", () -> ReactorSenders.toMono(null));
    }

    @Test
    @DisplayName("toFlux(null): NPE naming 'sender'")
    void toFlux_null() {
        assertNpeNaming("sender", () -> ReactorSenders.toFlux(null));
    }

    @Test
    @DisplayName("toMono of a sender whose connect returns null: onError with a violation naming the sender")
    void toMono_senderWhoseConnectReturnsNull_onErrorNamingIt() {
        Throwable e = assertThrows(RuntimeException.class,
                () -> ReactorSenders.toMono(new NullConnectSender<Integer>()).block(java.time.Duration.ofSeconds(10)));
        BadInput.assertNamesNullConnectSender(e);
    }

    @Test
    @DisplayName("toFlux of a sender whose connect returns null: onError with a violation naming the sender")
    void toFlux_senderWhoseConnectReturnsNull_onErrorNamingIt() {
        Throwable e = assertThrows(RuntimeException.class,
                () -> ReactorSenders.toFlux(new NullConnectSender<Integer>()).blockLast(java.time.Duration.ofSeconds(10)));
        BadInput.assertNamesNullConnectSender(e);
    }

    // ------------------------------------------------------------------ throwing receivers / subscribers

    @Test
    @DisplayName("C1: a receiver of fromMono throwing from setValue gets setError with that exception")
    void fromMono_receiverThrowsFromSetValue_setError() throws Exception {
        IllegalStateException boom = new IllegalStateException("receiver refused the value");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setValue(Integer v) {
                super.setValue(v);
                throw boom;
            }
        };
        // Connected directly: nested in a scope this hits core BUG-2 (NestSender.Op releases twice
        // when its receiver throws from setValue), see docs/reliability-suite.md.
        ReactorSenders.fromMono(Mono.just(1)).connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertSame(boom, r.error());
        assertTrue(coreDropped.isEmpty() && reactorDropped.isEmpty(), () -> coreDropped + " " + reactorDropped);
    }

    @Test
    @DisplayName("C1: a receiver of fromMono throwing from setError -> dev.senders.Hooks.onErrorDropped")
    void fromMono_receiverThrowsFromSetError_toHooks() throws Exception {
        IllegalStateException original = new IllegalStateException("mono failed");
        IllegalArgumentException boom = new IllegalArgumentException("receiver threw from setError");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setError(Throwable e) {
                super.setError(e);
                throw boom;
            }
        };
        ScopeSiblings.runInScope(ReactorSenders.fromMono(Mono.<Integer>error(original)), r);
        assertEquals(1, r.completions());
        assertEquals(List.of(boom), coreDropped);
    }

    @Test
    @DisplayName("toMono: a Subscriber throwing from onNext (§2.13 broken) -> the exception reaches a hook, at most one terminal signal")
    void toMono_subscriberThrowsFromOnNext_reported() {
        IllegalStateException boom = new IllegalStateException("subscriber threw from onNext");
        ThrowingSubscriber<Integer> subscriber = ThrowingSubscriber.fromOnNext(boom);
        ReactorSenders.toMono(Senders.just(1)).subscribe(subscriber);
        List<Throwable> all = new java.util.ArrayList<>(reactorDropped);
        all.addAll(coreDropped);
        assertTrue(all.stream().anyMatch(e -> e == boom || e.getCause() == boom), () -> "dropped: " + all);
        assertTrue(subscriber.terminal.get() <= 1);
    }

    @Test
    @DisplayName("toMono: a Subscriber throwing from onNext is not misreported as a sender completing twice")
    void toMono_subscriberThrowsFromOnNext_notMisreportedAsSenderViolation() {
        IllegalStateException boom = new IllegalStateException("subscriber threw from onNext");
        ThrowingSubscriber<Integer> subscriber = ThrowingSubscriber.fromOnNext(boom);
        ReactorSenders.toMono(Senders.just(1)).subscribe(subscriber);
        List<Throwable> all = new java.util.ArrayList<>(reactorDropped);
        all.addAll(coreDropped);
        assertTrue(all.stream().anyMatch(e -> e == boom || e.getCause() == boom), () -> "dropped: " + all);
        assertTrue(all.stream().noneMatch(e -> e instanceof ProtocolViolationException),
                () -> "reported as a sender protocol violation: " + all);
        assertTrue(subscriber.terminal.get() <= 1);
    }

    @Test
    @DisplayName("toMono: a Subscriber throwing from onError (§2.13 broken) -> reported to a hook, not lost")
    void toMono_subscriberThrowsFromOnError() {
        IllegalStateException failure = new IllegalStateException("sender failed");
        IllegalArgumentException boom = new IllegalArgumentException("subscriber threw from onError");
        ThrowingSubscriber<Integer> subscriber = ThrowingSubscriber.fromOnError(boom);
        ReactorSenders.toMono(Senders.<Integer>justError(failure)).subscribe(subscriber);
        List<Throwable> all = new java.util.ArrayList<>(reactorDropped);
        all.addAll(coreDropped);
        assertTrue(all.stream().anyMatch(e -> e == boom || e.getCause() == boom), () -> "dropped: " + all);
    }

    // ------------------------------------------------------------------ foreign publishers breaking RS

    @Test
    @DisplayName("fromPublisher: onNext without demand (§1.1) -> first value delivered once, ProtocolViolationException to Reactor's onErrorDropped")
    void fromPublisher_onNextWithoutDemand() throws Exception {
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub); // our subscriber requests 1
            s.onNext(1);
            s.onNext(2); // beyond demand
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(ReactorSenders.fromPublisher(p), r);
        assertEquals(1, r.completions());
        assertEquals(1, r.value());
        assertEquals(1, reactorDropped.size(), () -> "dropped: " + reactorDropped);
        assertInstanceOf(ProtocolViolationException.class, reactorDropped.get(0));
        assertTrue(reactorDropped.get(0).getMessage().contains("§1.1"), reactorDropped.get(0).getMessage());
    }

    @Test
    @DisplayName("fromPublisherAll: onSubscribe twice (§2.5) -> the second Subscription is cancelled, ProtocolViolationException dropped, the list still delivered")
    void fromPublisherAll_doubleOnSubscribe() throws Exception {
        ForeignPublisher<Integer> second = new ForeignPublisher<>((s, sub) -> { });
        AtomicInteger secondCancels = new AtomicInteger();
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub);
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                    secondCancels.incrementAndGet();
                }
            });
            s.onNext(1);
            s.onNext(2);
            s.onComplete();
        });
        TestReceiver<List<Integer>> r = new TestReceiver<>();
        ScopeSiblings.runInScope(ReactorSenders.fromPublisherAll(p), r);
        assertEquals(List.of(1, 2), r.value());
        assertEquals(1, secondCancels.get());
        assertEquals(0, p.cancels.get());
        assertEquals(1, reactorDropped.size(), () -> "dropped: " + reactorDropped);
        assertInstanceOf(ProtocolViolationException.class, reactorDropped.get(0));
        assertTrue(reactorDropped.get(0).getMessage().contains("§2.5"));
        assertEquals(0, second.requests.get());
    }

    @Test
    @DisplayName("fromPublisherAll: onNext after onComplete (§1.7) -> the list delivered once, the element to Reactor's onNextDropped")
    void fromPublisherAll_onNextAfterOnComplete() throws Exception {
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub);
            s.onNext(1);
            s.onComplete();
            s.onNext(99);
        });
        TestReceiver<List<Integer>> r = new TestReceiver<>();
        ScopeSiblings.runInScope(ReactorSenders.fromPublisherAll(p), r);
        assertEquals(1, r.completions());
        assertEquals(List.of(1), r.value());
        assertEquals(List.of(99), nextDropped);
    }

    @Test
    @DisplayName("fromPublisher: onNext(null) (§2.13) -> the receiver gets NullPointerException, which is also thrown to the publisher")
    void fromPublisher_nullElement() throws Exception {
        AtomicInteger thrownToPublisher = new AtomicInteger();
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub);
            try {
                s.onNext(null);
            } catch (NullPointerException e) {
                thrownToPublisher.incrementAndGet();
            }
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(ReactorSenders.fromPublisher(p), r);
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(NullPointerException.class, r.error());
        assertTrue(r.error().getMessage().contains("§2.13"), r.error().getMessage());
        assertEquals(1, thrownToPublisher.get());
        assertEquals(1, p.cancels.get());
    }

    @Test
    @DisplayName("fromPublisher: onNext before onSubscribe (§1.9) -> setError(ProtocolViolationException)")
    void fromPublisher_onNextBeforeOnSubscribe() throws Exception {
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onNext(1);
            s.onSubscribe(sub);
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(ReactorSenders.fromPublisher(p), r);
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(ProtocolViolationException.class, r.error());
        assertTrue(r.error().getMessage().contains("§1.9"), r.error().getMessage());
        assertEquals(1, r.completions());
    }

    @Test
    @DisplayName("fromPublisher: onError(null) (§2.13) -> NullPointerException thrown to the publisher; the receiver still completes")
    void fromPublisher_onErrorNull() throws Exception {
        AtomicInteger thrownToPublisher = new AtomicInteger();
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub);
            try {
                s.onError(null);
            } catch (NullPointerException e) {
                thrownToPublisher.incrementAndGet();
            }
            s.onComplete(); // the publisher recovers; the receiver must get exactly one completion
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(ReactorSenders.fromPublisher(p), r);
        assertEquals(1, thrownToPublisher.get());
        assertEquals(1, r.completions());
    }

    // ------------------------------------------------------------------ broken senders

    @Test
    @DisplayName("toMono of a sender completing twice -> one signal to the subscriber, ProtocolViolationException to Reactor's onErrorDropped")
    void toMono_senderCompletesTwice() {
        Sender<Integer> twice = r -> (OperationState) () -> {
            r.setValue(1);
            r.setValue(2);
        };
        List<Object> signals = new CopyOnWriteArrayList<>();
        ReactorSenders.toMono(twice).subscribe(signals::add, signals::add, () -> signals.add("complete"));
        assertEquals(List.of(1, "complete"), signals);
        assertEquals(1, reactorDropped.size(), () -> "dropped: " + reactorDropped);
        assertInstanceOf(ProtocolViolationException.class, reactorDropped.get(0));
        assertTrue(reactorDropped.get(0).getMessage().contains("completed twice"));
    }

    @Test
    @DisplayName("round trip: fromMono(toMono(sender that never completes)) honours a stop request through both adapters")
    void roundTrip_neverCompletingSender_stopReachesIt() throws Exception {
        AtomicInteger stopped = new AtomicInteger();
        Sender<Integer> untilStopped = r -> (OperationState) () -> r.env().stopToken().onStop(() -> {
            stopped.incrementAndGet();
            r.setStopped();
        });
        dev.senders.InplaceStopSource src = new dev.senders.InplaceStopSource();
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public dev.senders.Env env() {
                return dev.senders.Env.of(dev.senders.Query.STOP_TOKEN, src.token());
            }
        };
        ReactorSenders.fromMono(ReactorSenders.toMono(untilStopped)).connect(r).start();
        src.requestStop();
        r.await(); // hang guard: fails if it never completes
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(1, stopped.get());
        assertEquals(1, r.completions());
    }
}
