package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.OverlappingCompletePublisher;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.schedulers.Schedulers;
import io.reactivex.rxjava3.subjects.PublishSubject;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.FlowAdapters;

class FromRxTest {

    @Test
    void fromSingle_successIsSetValue() {
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromSingle(Single.just(7)));
        r.assertValue(7);
    }

    @Test
    void fromSingle_errorIsSetError() {
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromSingle(Single.<Integer>error(new IOException("x"))));
        r.assertError(IOException.class);
    }

    @Test
    void fromSingle_upstreamCancellationExceptionIsSetStopped() {
        TestReceiver<Integer> r = TestReceiver.start(
                RxSenders.fromSingle(Single.<Integer>error(new CancellationException())));
        r.assertStopped();
    }

    @Test
    void fromSingle_stopRequestDisposesUpstreamThenCompletesStopped() {
        AtomicInteger disposed = new AtomicInteger();
        TestReceiver<Object> r = TestReceiver.start(
                RxSenders.fromSingle(Single.never().doOnDispose(disposed::incrementAndGet)));
        r.assertNotCompleted();
        r.requestStop();
        assertEquals(1, disposed.get());
        r.assertStopped();
    }

    @Test
    void fromSingle_stopAlreadyRequestedDoesNotSubscribe() {
        AtomicInteger subscribed = new AtomicInteger();
        TestReceiver<Integer> r = TestReceiver.withStopSource();
        r.requestStop();
        RxSenders.fromSingle(Single.just(1).doOnSubscribe(d -> subscribed.incrementAndGet())).connect(r).start();
        r.assertStopped();
        assertEquals(0, subscribed.get());
    }

    @Test
    void fromSingle_isMultiShotAndColdEachStartSubscribesAnew() {
        AtomicInteger subscribed = new AtomicInteger();
        Sender<Integer> s = RxSenders.fromSingle(Single.fromCallable(subscribed::incrementAndGet));
        assertEquals(1, Senders.syncWait(s));
        assertEquals(2, Senders.syncWait(s));
    }

    @Test
    void fromSingle_completesOnTheThreadTheSourceSignalsOn() {
        TestReceiver<String> r = TestReceiver.start(RxSenders.fromSingle(
                Single.fromCallable(() -> "v").subscribeOn(Schedulers.single()))).await();
        r.assertValue("v");
        assertTrue(r.thread().getName().startsWith("RxSingleScheduler"), r.thread().getName());
    }

    @Test
    void fromMaybe_emptyIsSetValueNull() {
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromMaybe(Maybe.<Integer>empty()));
        r.assertValue(null);
        TestReceiver<Integer> r2 = TestReceiver.start(RxSenders.fromMaybe(Maybe.just(3)));
        r2.assertValue(3);
    }

    @Test
    void fromMaybeOptional_spellsOutEmpty() {
        TestReceiver<Optional<Integer>> r = TestReceiver.start(RxSenders.fromMaybeOptional(Maybe.<Integer>empty()));
        r.assertValue(Optional.empty());
        TestReceiver<Optional<Integer>> r2 = TestReceiver.start(RxSenders.fromMaybeOptional(Maybe.just(3)));
        r2.assertValue(Optional.of(3));
    }

    @Test
    void fromMaybe_stopRequestDisposesUpstream() {
        AtomicInteger disposed = new AtomicInteger();
        TestReceiver<Object> r = TestReceiver.start(RxSenders.fromMaybe(Maybe.never().doOnDispose(disposed::incrementAndGet)));
        r.requestStop();
        assertEquals(1, disposed.get());
        r.assertStopped();
    }

    @Test
    void fromCompletable_completeIsSetValueNullAndErrorIsSetError() {
        TestReceiver<Void> r = TestReceiver.start(RxSenders.fromCompletable(Completable.complete()));
        r.assertValue(null);
        TestReceiver<Void> r2 = TestReceiver.start(RxSenders.fromCompletable(Completable.error(new IOException())));
        r2.assertError(IOException.class);
    }

    @Test
    void fromCompletable_stopRequestDisposesUpstream() {
        AtomicInteger disposed = new AtomicInteger();
        TestReceiver<Void> r = TestReceiver.start(RxSenders.fromCompletable(
                Completable.never().doOnDispose(disposed::incrementAndGet)));
        r.requestStop();
        assertEquals(1, disposed.get());
        r.assertStopped();
    }

    @Test
    void fromObservable_firstElementThenDisposesUpstream() {
        PublishSubject<Integer> subject = PublishSubject.create();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromObservable(subject));
        assertTrue(subject.hasObservers());
        subject.onNext(1);
        assertFalse(subject.hasObservers());
        subject.onNext(2);
        r.assertValue(1);
    }

    @Test
    void fromObservable_emptyIsSetValueNull() {
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromObservable(Observable.<Integer>empty()));
        r.assertValue(null);
    }

    @Test
    void fromObservableSingle_secondElementIsIllegalArgumentAndDisposes() {
        PublishSubject<Integer> subject = PublishSubject.create();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromObservableSingle(subject));
        subject.onNext(1);
        r.assertNotCompleted();
        subject.onNext(2);
        assertFalse(subject.hasObservers());
        r.assertError(IllegalArgumentException.class);
        TestReceiver<Integer> one = TestReceiver.start(RxSenders.fromObservableSingle(Observable.just(5)));
        one.assertValue(5);
    }

    @Test
    void fromObservableLastListIgnore_likeLastElementToListIgnoreElements() {
        Observable<Integer> src = Observable.range(1, 4);
        TestReceiver.start(RxSenders.fromObservableLast(src)).assertValue(4);
        TestReceiver.start(RxSenders.fromObservableList(src)).assertValue(List.of(1, 2, 3, 4));
        TestReceiver.start(RxSenders.fromObservableList(Observable.<Integer>empty())).assertValue(List.of());
        TestReceiver.start(RxSenders.fromObservableIgnoreElements(src)).assertValue(null);
        TestReceiver.start(RxSenders.fromObservableLast(Observable.<Integer>empty())).assertValue(null);
    }

    @Test
    void fromObservable_stopRequestDisposesUpstream() {
        PublishSubject<Integer> subject = PublishSubject.create();
        TestReceiver<List<Integer>> r = TestReceiver.start(RxSenders.fromObservableList(subject));
        subject.onNext(1);
        r.requestStop();
        assertFalse(subject.hasObservers());
        r.assertStopped();
    }

    @Test
    void fromFlowable_requestsOneTakesFirstThenCancels() {
        PublishProcessor<Integer> pp = PublishProcessor.create();
        List<Long> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromFlowable(pp.doOnRequest(requests::add)));
        assertTrue(pp.hasSubscribers());
        assertEquals(List.of(1L), requests);
        pp.onNext(1);
        assertFalse(pp.hasSubscribers());
        r.assertValue(1);
    }

    @Test
    void fromFlowable_emptyIsSetValueNullErrorIsSetErrorCancellationIsStopped() {
        TestReceiver.start(RxSenders.fromFlowable(Flowable.<Integer>empty())).assertValue(null);
        TestReceiver.start(RxSenders.fromFlowable(Flowable.<Integer>error(new IOException()))).assertError(IOException.class);
        TestReceiver.start(RxSenders.fromFlowable(Flowable.<Integer>error(new CancellationException()))).assertStopped();
    }

    @Test
    void fromFlowableVariants_likeSingleLastListIgnoreElements() {
        Flowable<Integer> src = Flowable.range(1, 3);
        TestReceiver.start(RxSenders.fromFlowableSingle(src)).assertError(IllegalArgumentException.class);
        TestReceiver.start(RxSenders.fromFlowableSingle(Flowable.just(9))).assertValue(9);
        TestReceiver.start(RxSenders.fromFlowableSingle(Flowable.<Integer>empty())).assertValue(null);
        TestReceiver.start(RxSenders.fromFlowableLast(src)).assertValue(3);
        TestReceiver.start(RxSenders.fromFlowableList(src)).assertValue(List.of(1, 2, 3));
        TestReceiver.start(RxSenders.fromFlowableIgnoreElements(src)).assertValue(null);
        TestReceiver.start(RxSenders.fromPublisherList(src)).assertValue(List.of(1, 2, 3));
        TestReceiver.start(RxSenders.fromPublisher(src)).assertValue(1);
    }

    @Test
    void fromFlowableSingle_cancelsUpstreamAtTheSecondElement() {
        PublishProcessor<Integer> pp = PublishProcessor.create();
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromFlowableSingle(pp));
        pp.onNext(1);
        assertTrue(pp.hasSubscribers());
        pp.onNext(2);
        assertFalse(pp.hasSubscribers());
        r.assertError(IllegalArgumentException.class);
    }

    @Test
    void fromFlowable_stopRequestCancelsSubscriptionThenCompletesStopped() {
        PublishProcessor<Integer> pp = PublishProcessor.create();
        TestReceiver<List<Integer>> r = TestReceiver.start(RxSenders.fromFlowableList(pp));
        pp.onNext(1);
        r.requestStop();
        assertFalse(pp.hasSubscribers());
        r.assertStopped();
        pp.onNext(2); // nobody listens; nothing happens
        r.assertStopped();
    }

    @Test
    void from_nullArgumentsAreRejected() {
        assertThrows(NullPointerException.class, () -> RxSenders.fromSingle(null));
        assertThrows(NullPointerException.class, () -> RxSenders.fromMaybe(null));
        assertThrows(NullPointerException.class, () -> RxSenders.fromCompletable(null));
        assertThrows(NullPointerException.class, () -> RxSenders.fromFlowable(null));
        assertThrows(NullPointerException.class, () -> RxSenders.fromObservable(null));
        assertThrows(NullPointerException.class, () -> RxSenders.fromPublisher(null));
        assertThrows(NullPointerException.class, () -> RxSenders.fromSingle(Single.just(1)).connect(null));
    }

    @Test
    void fromSingle_receiverThrowingFromSetValueGetsSetError() {
        AtomicInteger errors = new AtomicInteger();
        RxSenders.fromSingle(Single.just(1)).connect(new dev.senders.Receiver<Integer>() {
            @Override public void setValue(Integer v) { throw new IllegalStateException("refused"); }
            @Override public void setError(Throwable e) { errors.incrementAndGet(); }
            @Override public void setStopped() { }
        }).start();
        assertEquals(1, errors.get());
    }

    @Test
    void fromPublisher_subscribeThatThrowsIsSetError() {
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromPublisher(s -> {
            throw new IllegalStateException("broken publisher");
        }));
        r.assertError(IllegalStateException.class);
    }

    /** The hostile publisher seen as an {@code Observable} (the Observer contract is serial too). */
    static Observable<Integer> observable(Flow.Publisher<Integer> p) {
        return Observable.unsafeCreate(observer -> p.subscribe(new Flow.Subscriber<Integer>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                observer.onSubscribe(Disposable.fromRunnable(s::cancel));
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(Integer item) {
                observer.onNext(item);
            }

            @Override
            public void onError(Throwable t) {
                observer.onError(t);
            }

            @Override
            public void onComplete() {
                observer.onComplete();
            }
        }));
    }

    static Flowable<Integer> flowable(Flow.Publisher<Integer> p) {
        return Flowable.fromPublisher(FlowAdapters.toPublisher(p));
    }

    @Test
    @DisplayName("§1.3 broken (onComplete on another thread while onNext runs): every mode completes the receiver once, or with a ProtocolViolationException")
    @SuppressWarnings("try") // the resource only collects plugin errors while it is open
    void serialSignalsRuleBroken_everyModeCompletesTheReceiverOnce() {
        try (PluginErrors ignored = new PluginErrors()) { // the elements after onComplete are reported there (§1.7)
            int all = Integer.MAX_VALUE;
            OverlappingCompletePublisher.checkEveryRound(1, p -> RxSenders.fromPublisher(FlowAdapters.toPublisher(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromPublisherList(FlowAdapters.toPublisher(p)));
            OverlappingCompletePublisher.checkEveryRound(1, p -> RxSenders.fromFlowable(flowable(p)));
            OverlappingCompletePublisher.checkEveryRound(1, p -> RxSenders.fromFlowableSingle(flowable(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromFlowableLast(flowable(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromFlowableList(flowable(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromFlowableIgnoreElements(flowable(p)));
            OverlappingCompletePublisher.checkEveryRound(1, p -> RxSenders.fromObservable(observable(p)));
            OverlappingCompletePublisher.checkEveryRound(1, p -> RxSenders.fromObservableSingle(observable(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromObservableLast(observable(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromObservableList(observable(p)));
            OverlappingCompletePublisher.checkEveryRound(all, p -> RxSenders.fromObservableIgnoreElements(observable(p)));
        }
    }
}
