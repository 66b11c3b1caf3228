package dev.senders.rxjava3.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.senders.testkit.BadInput.assertNpeNaming;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.rxjava3.RxSenders;
import dev.senders.testkit.BadInput;
import dev.senders.testkit.Broken.NullConnectSender;
import dev.senders.testkit.ForeignPublisher;
import dev.senders.testkit.ScopeSiblings;
import dev.senders.testkit.ThrowingSubscriber;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Bad input at the RxJava 3 boundary: null arguments, observers/subscribers and receivers that
 * throw, foreign publishers that break the Reactive Streams rules, senders that complete twice.
 * {@code RxJavaPlugins.setErrorHandler} and {@code dev.senders.Hooks} are captured around each
 * test. The from* cases run nested in a scope next to a sibling ({@link ScopeSiblings#runInScope}).
 */
class RxBadInputTest {

    final List<Throwable> rxErrors = new CopyOnWriteArrayList<>();
    final List<Throwable> coreDropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void hooks() {
        RxJavaPlugins.setErrorHandler(rxErrors::add);
        dev.senders.Hooks.setOnErrorDropped(coreDropped::add);
    }

    @AfterEach
    void resetHooks() {
        RxJavaPlugins.setErrorHandler(null);
        dev.senders.Hooks.resetOnErrorDropped();
    }

    static Throwable unwrap(Throwable t) {
        return t instanceof io.reactivex.rxjava3.exceptions.UndeliverableException ? t.getCause() : t;
    }

    // ------------------------------------------------------------------ null arguments

    @Test
    @DisplayName("toSingle, toMaybe, toCompletable, toFlowable of a sender whose connect returns null: onError with a violation naming the sender")
    void toRx_senderWhoseConnectReturnsNull_onErrorNamingIt() {
        List<io.reactivex.rxjava3.core.Flowable<?>> all = List.of(
                RxSenders.toSingle(new NullConnectSender<Integer>()).toFlowable(),
                RxSenders.toMaybe(new NullConnectSender<Integer>()).toFlowable(),
                RxSenders.toCompletable(new NullConnectSender<Integer>()).toFlowable(),
                RxSenders.toFlowable(new NullConnectSender<Integer>()));
        for (io.reactivex.rxjava3.core.Flowable<?> f : all) {
            io.reactivex.rxjava3.subscribers.TestSubscriber<?> t = f.test();
            t.awaitDone(10, java.util.concurrent.TimeUnit.SECONDS);
            t.assertError(e -> {
                BadInput.assertNamesNullConnectSender(e);
                return true;
            });
        }
        assertTrue(rxErrors.isEmpty() && coreDropped.isEmpty(), () -> rxErrors + " " + coreDropped);
    }

    @Test
    @DisplayName("fromSingle(null): NPE naming 'single'")
    void fromSingle_null() {
        assertNpeNaming("single", () -> RxSenders.fromSingle(null));
    }

    @Test
    @DisplayName("fromFlowable(null): NPE naming 'flowable'")
    void fromFlowable_null() {
        assertNpeNaming("flowable", () -> RxSenders.fromFlowable(null));
    }

    @Test
    @DisplayName("fromPublisher(null): NPE naming 'publisher'")
    void fromPublisher_null() {
        assertNpeNaming("publisher", () -> RxSenders.fromPublisher(null));
    }

    @Test
    @DisplayName("fromObservable(null): NPE naming 'observable'")
    void fromObservable_null() {
        assertNpeNaming("observable", () -> RxSenders.fromObservable(null));
    }

    @Test
    @DisplayName("toSingle(null): NPE naming 'sender'")
    void toSingle_null() {
        assertNpeNaming("sender", () -> RxSenders.toSingle(null));
    }

    @Test
    @DisplayName("toFlowable(null): NPE naming 'sender'")
    void toFlowable_null() {
        assertNpeNaming("sender", () -> RxSenders.toFlowable(null));
    }

    // ------------------------------------------------------------------ throwing receivers / observers

    @Test
    @DisplayName("C1: a receiver of fromSingle throwing from setValue gets setError with that exception")
    void fromSingle_receiverThrowsFromSetValue_setError() {
        IllegalStateException boom = new IllegalStateException("receiver refused the value");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setValue(Integer v) {
                super.setValue(v);
                throw boom;
            }
        };
        // Connected directly: nested in a scope this hits core BUG-2 (see docs/reliability-suite.md).
        RxSenders.fromSingle(Single.just(1)).connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertSame(boom, r.error());
        assertTrue(coreDropped.isEmpty() && rxErrors.isEmpty(), () -> coreDropped + " " + rxErrors);
    }

    @Test
    @DisplayName("C1: a receiver of fromSingle throwing from setError -> dev.senders.Hooks.onErrorDropped")
    void fromSingle_receiverThrowsFromSetError_toHooks() throws Exception {
        IllegalArgumentException boom = new IllegalArgumentException("receiver threw from setError");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setError(Throwable e) {
                super.setError(e);
                throw boom;
            }
        };
        ScopeSiblings.runInScope(RxSenders.fromSingle(Single.<Integer>error(new IllegalStateException("single failed"))), r);
        assertEquals(1, r.completions());
        assertEquals(List.of(boom), coreDropped);
    }

    @Test
    @DisplayName("toSingle: an observer throwing from onSuccess -> RxJavaPlugins.onError, not re-signalled as onError")
    void toSingle_observerThrowsFromOnSuccess() {
        IllegalStateException boom = new IllegalStateException("observer threw from onSuccess");
        AtomicInteger onError = new AtomicInteger();
        RxSenders.toSingle(Senders.just(1)).subscribe(new SingleObserver<Integer>() {
            @Override
            public void onSubscribe(Disposable d) {
            }

            @Override
            public void onSuccess(Integer v) {
                throw boom;
            }

            @Override
            public void onError(Throwable e) {
                onError.incrementAndGet();
            }
        });
        assertEquals(0, onError.get());
        assertEquals(1, rxErrors.size(), () -> "rx errors: " + rxErrors);
        assertSame(boom, unwrap(rxErrors.get(0)));
        assertTrue(coreDropped.stream().noneMatch(e -> e instanceof ProtocolViolationException),
                () -> "misreported as a sender violation: " + coreDropped);
    }

    @Test
    @DisplayName("toFlowable: a Subscriber throwing from onNext -> RxJavaPlugins.onError, no second terminal signal")
    void toFlowable_subscriberThrowsFromOnNext() {
        IllegalStateException boom = new IllegalStateException("subscriber threw from onNext");
        ThrowingSubscriber<Integer> subscriber = ThrowingSubscriber.fromOnNext(boom);
        RxSenders.toFlowable(Senders.just(1)).subscribe(subscriber);
        List<Throwable> all = new java.util.ArrayList<>();
        rxErrors.forEach(e -> all.add(unwrap(e)));
        all.addAll(coreDropped);
        assertTrue(all.stream().anyMatch(e -> e == boom), () -> "reported: " + all);
        assertTrue(subscriber.terminal.get() <= 1);
    }

    // ------------------------------------------------------------------ foreign publishers breaking RS

    @Test
    @DisplayName("fromPublisher: onNext beyond demand (§1.1) -> value delivered once; ProtocolViolationException to RxJavaPlugins")
    void fromPublisher_onNextWithoutDemand() throws Exception {
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub); // we request 1
            s.onNext(1);
            s.onNext(2); // beyond demand, after our cancel
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(RxSenders.fromPublisher(p), r);
        assertEquals(1, r.completions());
        assertEquals(1, r.value());
        assertEquals(1, p.cancels.get());
        assertEquals(1, rxErrors.size(), () -> "rx errors: " + rxErrors);
        assertInstanceOf(ProtocolViolationException.class, rxErrors.get(0));
        assertTrue(rxErrors.get(0).getMessage().contains("§1.1"), rxErrors.get(0).getMessage());
    }

    @Test
    @DisplayName("fromPublisher: onSubscribe twice (§2.5) -> the second Subscription is cancelled, ProtocolViolationException to RxJavaPlugins, value delivered")
    void fromPublisher_doubleOnSubscribe() throws Exception {
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
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(RxSenders.fromPublisher(p), r);
        assertEquals(1, r.value());
        assertEquals(1, secondCancels.get());
        assertEquals(1, rxErrors.size(), () -> "rx errors: " + rxErrors);
        assertInstanceOf(ProtocolViolationException.class, unwrap(rxErrors.get(0)));
        assertTrue(rxErrors.get(0).getMessage().contains("§2.5"));
    }

    @Test
    @DisplayName("fromPublisherList: onNext after onComplete (§1.7) -> the list delivered once, ProtocolViolationException to RxJavaPlugins")
    void fromPublisherList_onNextAfterOnComplete() throws Exception {
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onSubscribe(sub);
            s.onNext(1);
            s.onComplete();
            s.onNext(99);
        });
        TestReceiver<List<Integer>> r = new TestReceiver<>();
        ScopeSiblings.runInScope(RxSenders.fromPublisherList(p), r);
        assertEquals(1, r.completions());
        assertEquals(List.of(1), r.value());
        assertEquals(1, rxErrors.size(), () -> "rx errors: " + rxErrors);
        assertInstanceOf(ProtocolViolationException.class, unwrap(rxErrors.get(0)));
        assertTrue(rxErrors.get(0).getMessage().contains("§1.7"));
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
        ScopeSiblings.runInScope(RxSenders.fromPublisher(p), r);
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(NullPointerException.class, r.error());
        assertTrue(r.error().getMessage().contains("§2.13"), r.error().getMessage());
        assertEquals(1, thrownToPublisher.get());
    }

    @Test
    @DisplayName("fromPublisher: onNext before onSubscribe (§1.9) -> setError(ProtocolViolationException)")
    void fromPublisher_onNextBeforeOnSubscribe() throws Exception {
        ForeignPublisher<Integer> p = new ForeignPublisher<>((s, sub) -> {
            s.onNext(1);
            s.onSubscribe(sub);
        });
        TestReceiver<Integer> r = new TestReceiver<>();
        ScopeSiblings.runInScope(RxSenders.fromPublisher(p), r);
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(ProtocolViolationException.class, r.error());
        assertTrue(r.error().getMessage().contains("§1.9"), r.error().getMessage());
        assertEquals(1, r.completions());
    }

    // ------------------------------------------------------------------ broken senders

    @Test
    @DisplayName("toSingle of a sender completing twice -> one signal to the observer, ProtocolViolationException to RxJavaPlugins")
    void toSingle_senderCompletesTwice() {
        Sender<Integer> twice = r -> (OperationState) () -> {
            r.setValue(1);
            r.setValue(2);
        };
        RxSenders.toSingle(twice).test().assertValue(1);
        assertEquals(1, rxErrors.size(), () -> "rx errors: " + rxErrors);
        assertInstanceOf(ProtocolViolationException.class, unwrap(rxErrors.get(0)));
    }

    @Test
    @DisplayName("round trip: fromSingle(toSingle(sender that never completes)) honours a stop request through both adapters")
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
        RxSenders.fromSingle(RxSenders.toSingle(untilStopped)).connect(r).start();
        src.requestStop();
        r.await(); // hang guard: fails if it never completes
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(1, stopped.get());
        assertEquals(1, r.completions());
    }
}
