package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.ProtocolViolationException;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.exceptions.UndeliverableException;
import io.reactivex.rxjava3.observers.TestObserver;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/** Errors nobody can take go to RxJavaPlugins.onError; rule-breaking sources are reported, never silent. */
class UndeliverableAndViolationTest {

    private PluginErrors plugin;

    @BeforeEach
    void installHandler() {
        plugin = new PluginErrors();
    }

    @AfterEach
    void resetPlugins() {
        plugin.close();
    }

    // RxJavaPlugins.onError passes "bugs" (IllegalStateException, hence ProtocolViolationException,
    // NullPointerException, ...) as they are and wraps everything else in UndeliverableException.

    private Throwable onlyPluginError() {
        assertEquals(1, plugin.errors.size(), () -> "plugin errors: " + plugin.errors);
        return plugin.errors.get(0);
    }

    @Test
    void toSingle_errorAfterDisposeGoesToRxJavaPluginsAsUndeliverable() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestObserver<Integer> to = RxSenders.toSingle(s).test();
        to.dispose();
        IOException e = new IOException("late");
        s.receiver().setError(e);
        to.assertEmpty();
        Throwable t = onlyPluginError();
        assertInstanceOf(UndeliverableException.class, t);
        assertSame(e, t.getCause());
    }

    @Test
    void toSingle_stoppedOrValueAfterDisposeIsNotAnError() {
        ManualSender<Integer> s = new ManualSender<>(true);
        RxSenders.toSingle(s).test().dispose();
        ManualSender<Integer> v = new ManualSender<>(false);
        RxSenders.toSingle(v).test().dispose();
        v.receiver().setValue(1);
        assertEquals(List.of(), plugin.errors);
    }

    @Test
    void toMaybeAndToCompletable_errorAfterDisposeGoesToRxJavaPlugins() {
        ManualSender<Integer> s = new ManualSender<>(false);
        RxSenders.toMaybe(s).test().dispose();
        s.receiver().setError(new IOException());
        ManualSender<Integer> c = new ManualSender<>(false);
        RxSenders.toCompletable(c).test().dispose();
        c.receiver().setError(new IOException());
        assertEquals(2, plugin.errors.size());
        plugin.errors.forEach(t -> assertInstanceOf(IOException.class, t.getCause()));
    }

    @Test
    void toFlowable_errorAfterCancelGoesToRxJavaPlugins() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test();
        ts.cancel();
        s.receiver().setError(new IOException("late"));
        ts.assertEmpty();
        assertInstanceOf(IOException.class, onlyPluginError().getCause());
    }

    @Test
    void toSingle_senderCompletingTwiceIsReportedAsProtocolViolation() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestObserver<Integer> to = RxSenders.toSingle(s).test();
        s.receiver().setValue(1);
        s.receiver().setValue(2);
        to.assertValue(1);
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
    }

    @Test
    void toFlowable_senderCompletingTwiceIsReportedAsProtocolViolation() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(0);
        s.receiver().setValue(1);
        s.receiver().setStopped();
        ts.request(1);
        ts.assertValue(1).assertComplete();
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
    }

    @Test
    void toFlowable_secondValueWhileTheFirstWaitsForDemandKeepsTheFirst() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(0);
        s.receiver().setValue(1);
        s.receiver().setValue(2);
        ts.request(1);
        ts.assertValue(1).assertComplete();
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
    }

    @Test
    void toSingle_observerThrowingFromOnSuccessGoesToRxJavaPlugins() {
        RxSenders.toSingle(dev.senders.Senders.just(1)).subscribe(v -> { throw new IOException("consumer"); }, e -> { });
        // the lambda observer itself routes its own failure; either way it is not lost
        assertTrue(plugin.errors.stream().anyMatch(t -> t.getCause() instanceof IOException
                || t instanceof IOException));
    }

    @Test
    void fromSingle_errorAfterStopGoesToRxJavaPlugins() {
        AtomicReference<SingleObserver<? super Integer>> observer = new AtomicReference<>();
        Single<Integer> raw = Single.unsafeCreate(o -> {
            o.onSubscribe(Disposable.empty());
            observer.set(o);
        });
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromSingle(raw));
        r.requestStop();
        r.assertStopped();
        IOException e = new IOException("late");
        observer.get().onError(e);
        r.assertStopped();
        assertSame(e, onlyPluginError().getCause());
    }

    @Test
    void fromSingle_doubleOnSubscribeDisposesTheSecondAndReports() {
        Disposable second = Disposable.empty();
        Single<Integer> raw = Single.unsafeCreate(o -> {
            o.onSubscribe(Disposable.empty());
            o.onSubscribe(second);
            o.onSuccess(1);
        });
        TestReceiver.start(RxSenders.fromSingle(raw)).assertValue(1);
        assertTrue(second.isDisposed());
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
    }

    @Test
    void fromSingle_secondTerminalSignalIsReportedAsProtocolViolation() {
        Single<Integer> raw = Single.unsafeCreate(o -> {
            o.onSubscribe(Disposable.empty());
            o.onSuccess(1);
            o.onSuccess(2);
        });
        TestReceiver.start(RxSenders.fromSingle(raw)).assertValue(1);
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
    }

    @Test
    void fromObservable_onNextAfterOnCompleteIsReported() {
        Observable<Integer> raw = Observable.unsafeCreate((Observer<? super Integer> o) -> {
            o.onSubscribe(Disposable.empty());
            o.onComplete();
            o.onNext(1);
        });
        TestReceiver.start(RxSenders.fromObservableList(raw)).assertValue(List.of());
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
    }

    /** A publisher that hands its subscriber to the test to misbehave with. */
    private static final class RawPublisher implements Publisher<Integer> {
        volatile Subscriber<? super Integer> subscriber;
        final AtomicInteger cancels = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        final Subscription subscription = new Subscription() {
            @Override public void request(long n) { requests.incrementAndGet(); }
            @Override public void cancel() { cancels.incrementAndGet(); }
        };

        @Override
        public void subscribe(Subscriber<? super Integer> s) {
            subscriber = s;
        }
    }

    @Test
    void fromPublisher_secondOnSubscribeIsCancelledAndReported_rule2_5() {
        RawPublisher p = new RawPublisher();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(p));
        p.subscriber.onSubscribe(p.subscription);
        AtomicInteger secondCancels = new AtomicInteger();
        p.subscriber.onSubscribe(new Subscription() {
            @Override public void request(long n) { throw new AssertionError("requested from a second subscription"); }
            @Override public void cancel() { secondCancels.incrementAndGet(); }
        });
        assertEquals(1, secondCancels.get());
        assertEquals(0, p.cancels.get());
        assertInstanceOf(ProtocolViolationException.class, onlyPluginError());
        p.subscriber.onNext(5);
        r.assertValue(5);
    }

    @Test
    void fromPublisher_nullElementThrowsNpeAndFailsTheReceiver_rule2_13() {
        RawPublisher p = new RawPublisher();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(p));
        p.subscriber.onSubscribe(p.subscription);
        assertThrows(NullPointerException.class, () -> p.subscriber.onNext(null));
        r.assertError(NullPointerException.class);
        assertEquals(1, p.cancels.get());
    }

    @Test
    void fromPublisher_onNextBeforeOnSubscribeFailsTheReceiver_rule1_9() {
        RawPublisher p = new RawPublisher();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(p));
        p.subscriber.onNext(1);
        r.assertError(ProtocolViolationException.class);
        p.subscriber.onSubscribe(p.subscription); // arrives late: cancelled at once, never requested
        assertEquals(1, p.cancels.get());
        assertEquals(0, p.requests.get());
    }

    @Test
    void fromPublisher_cancelFromOnNextInsideRequestIsDeferredUntilRequestReturns_rule2_7() {
        RawPublisher q = new RawPublisher();
        AtomicInteger cancelsSeenInsideRequest = new AtomicInteger(-1);
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(q));
        q.subscriber.onSubscribe(new Subscription() {
            @Override public void request(long n) {
                q.subscriber.onNext(1); // synchronous emission: FIRST wants to cancel right here
                cancelsSeenInsideRequest.set(q.cancels.get());
            }
            @Override public void cancel() { q.cancels.incrementAndGet(); }
        });
        r.assertValue(1);
        assertEquals(0, cancelsSeenInsideRequest.get()); // no cancel while request was running
        assertEquals(1, q.cancels.get());                // but right after it returned
    }

    @Test
    void fromPublisher_signalsAfterOnCompleteAreReported_rule1_7() {
        RawPublisher p = new RawPublisher();
        TestReceiver<List<Integer>> r = TestReceiver.start(RxSenders.fromPublisherList(p));
        p.subscriber.onSubscribe(p.subscription);
        p.subscriber.onNext(1);
        p.subscriber.onComplete();
        r.assertValue(List.of(1));
        p.subscriber.onNext(2);
        p.subscriber.onComplete();
        p.subscriber.onError(new IOException());
        assertEquals(3, plugin.errors.size(), () -> "" + plugin.errors);
        assertInstanceOf(ProtocolViolationException.class, plugin.errors.get(0));
        assertInstanceOf(ProtocolViolationException.class, plugin.errors.get(1));
        assertInstanceOf(IOException.class, plugin.errors.get(2).getCause());
        r.assertValue(List.of(1));
    }

    @Test
    void fromPublisher_onCompleteAfterOurOwnCancelIsExpectedAndIgnored_rule2_8() {
        RawPublisher p = new RawPublisher();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(p));
        p.subscriber.onSubscribe(p.subscription);
        p.subscriber.onNext(1);
        p.subscriber.onComplete();
        r.assertValue(1);
        assertEquals(1, p.cancels.get());
        assertEquals(List.of(), plugin.errors);
    }

    @Test
    void fromPublisher_anElementBeyondDemandIsReportedEvenAfterOurOwnCancel_rule1_1() {
        RawPublisher p = new RawPublisher();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(p));
        p.subscriber.onSubscribe(p.subscription);
        p.subscriber.onNext(1);
        p.subscriber.onNext(2); // 1 was requested in total
        r.assertValue(1);
        assertEquals(1, p.cancels.get());
        assertEquals(1, plugin.errors.size(), () -> "" + plugin.errors);
        assertInstanceOf(ProtocolViolationException.class, plugin.errors.get(0));
        assertTrue(plugin.errors.get(0).getMessage().contains("§1.1"), plugin.errors.get(0).getMessage());
    }

    @Test
    void fromPublisher_nullOnSubscribeAndOnErrorThrowNpe_rule2_13() {
        RawPublisher p = new RawPublisher();
        TestReceiver.start(RxSenders.fromPublisher(p));
        assertThrows(NullPointerException.class, () -> p.subscriber.onSubscribe(null));
        assertThrows(NullPointerException.class, () -> p.subscriber.onError(null));
    }
}
