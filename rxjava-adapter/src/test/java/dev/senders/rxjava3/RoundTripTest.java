package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.observers.TestObserver;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.subjects.PublishSubject;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.io.IOException;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Rx -> sender -> Rx and sender -> Rx -> sender: value, empty, error, stop, dispose reaching the source. */
class RoundTripTest {

    @Test
    void singleRoundTrip_valueErrorAndCancellationSurvive() {
        RxSenders.toSingle(RxSenders.fromSingle(Single.just(1))).test().assertValue(1);
        IOException e = new IOException();
        RxSenders.toSingle(RxSenders.fromSingle(Single.<Integer>error(e))).test().assertError(e);
        RxSenders.toSingle(RxSenders.fromSingle(Single.<Integer>error(new CancellationException())))
                .test().assertError(CancellationException.class);
    }

    @Test
    void singleRoundTrip_disposeReachesTheSource() {
        AtomicInteger disposed = new AtomicInteger();
        TestObserver<Object> to = RxSenders.toSingle(RxSenders.fromSingle(
                Single.never().doOnDispose(disposed::incrementAndGet))).test();
        to.dispose();
        assertEquals(1, disposed.get());
        to.assertEmpty();
    }

    @Test
    void maybeRoundTrip_emptyStaysEmpty() {
        RxSenders.toMaybe(RxSenders.fromMaybe(Maybe.<Integer>empty())).test().assertNoValues().assertComplete();
        RxSenders.toMaybe(RxSenders.fromMaybe(Maybe.just(2))).test().assertValue(2);
        RxSenders.toSingle(RxSenders.fromMaybe(Maybe.<Integer>empty())).test().assertError(NoSuchElementException.class);
        AtomicInteger disposed = new AtomicInteger();
        RxSenders.toMaybe(RxSenders.fromMaybe(Maybe.never().doOnDispose(disposed::incrementAndGet))).test().dispose();
        assertEquals(1, disposed.get());
    }

    @Test
    void completableRoundTrip_completeErrorDispose() {
        RxSenders.toCompletable(RxSenders.fromCompletable(Completable.complete())).test().assertComplete();
        RxSenders.toCompletable(RxSenders.fromCompletable(Completable.error(new IOException())))
                .test().assertError(IOException.class);
        AtomicInteger disposed = new AtomicInteger();
        RxSenders.toCompletable(RxSenders.fromCompletable(
                Completable.never().doOnDispose(disposed::incrementAndGet))).test().dispose();
        assertEquals(1, disposed.get());
    }

    @Test
    void flowableRoundTrip_firstElementOnDemandAndCancelReachesTheSource() {
        PublishProcessor<Integer> pp = PublishProcessor.create();
        TestSubscriber<Integer> ts = RxSenders.toFlowable(RxSenders.fromFlowable(pp)).test(0);
        assertTrue(pp.hasSubscribers());
        ts.cancel();
        assertFalse(pp.hasSubscribers());
        ts.assertEmpty();

        PublishProcessor<Integer> pp2 = PublishProcessor.create();
        TestSubscriber<Integer> ts2 = RxSenders.toFlowable(RxSenders.fromFlowable(pp2)).test(0);
        pp2.onNext(1);
        assertFalse(pp2.hasSubscribers());
        ts2.assertEmpty();
        ts2.request(1);
        ts2.assertValue(1).assertComplete();
        RxSenders.toFlowable(RxSenders.fromFlowable(Flowable.<Integer>empty())).test().assertNoValues().assertComplete();
        RxSenders.toFlowable(RxSenders.fromFlowable(Flowable.<Integer>error(new IOException())))
                .test().assertError(IOException.class);
    }

    @Test
    void observableRoundTrip_disposeReachesTheSubject() {
        PublishSubject<Integer> subject = PublishSubject.create();
        TestObserver<Integer> to = RxSenders.toMaybe(RxSenders.fromObservable(subject)).test();
        assertTrue(subject.hasObservers());
        to.dispose();
        assertFalse(subject.hasObservers());
    }

    @Test
    void senderRoundTrip_valueNullErrorStoppedSurvive() {
        assertEquals(3, Senders.syncWait(RxSenders.fromSingle(RxSenders.toSingle(Senders.just(3)))));
        assertEquals(null, Senders.syncWait(RxSenders.fromMaybe(RxSenders.toMaybe(Senders.<Integer>just(null)))));
        assertEquals(null, Senders.syncWait(RxSenders.fromFlowable(RxSenders.toFlowable(Senders.<Integer>just(null)))));
        assertEquals(6, Senders.syncWait(RxSenders.fromFlowable(RxSenders.toFlowable(Senders.just(6)))));
        TestReceiver.start(RxSenders.fromSingle(RxSenders.toSingle(Senders.<Integer>justError(new IOException()))))
                .assertError(IOException.class);
        // stopped -> onError(CancellationException) -> stopped again
        TestReceiver.start(RxSenders.fromSingle(RxSenders.toSingle(Senders.<Integer>justStopped()))).assertStopped();
        TestReceiver.start(RxSenders.fromCompletable(RxSenders.toCompletable(Senders.justStopped()))).assertStopped();
        TestReceiver.start(RxSenders.fromFlowable(RxSenders.toFlowable(Senders.<Integer>justStopped()))).assertStopped();
        TestReceiver.start(RxSenders.fromObservable(RxSenders.toFlowable(Senders.<Integer>justStopped()).toObservable()))
                .assertStopped();
    }

    @Test
    void senderRoundTrip_stopRequestReachesTheInnerSender() {
        ManualSender<Integer> inner = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromSingle(RxSenders.toSingle(inner)));
        r.requestStop();
        assertEquals(1, inner.stopsSeen());
        r.assertStopped();

        ManualSender<Integer> inner2 = new ManualSender<>(true);
        TestReceiver<Integer> r2 = TestReceiver.start(RxSenders.fromFlowable(RxSenders.toFlowable(inner2)));
        r2.requestStop();
        assertEquals(1, inner2.stopsSeen());
        r2.assertStopped();
    }

    @Test
    void observableRoundTrip_listOfFlowable() {
        assertEquals(java.util.List.of(1, 2), Senders.syncWait(RxSenders.fromObservableList(Observable.just(1, 2))));
    }

    // ---- the literal round trip is the identity, like Single.wrap(single) ----

    @Test
    void roundTripReturnsTheOriginalSingleMaybeAndCompletable() {
        Single<Integer> single = Single.just(1);
        Maybe<Integer> maybe = Maybe.empty();
        Completable completable = Completable.complete();
        assertSame(single, RxSenders.toSingle(RxSenders.fromSingle(single)));
        assertSame(maybe, RxSenders.toMaybe(RxSenders.fromMaybe(maybe)));
        assertSame(completable, RxSenders.toCompletable(RxSenders.fromCompletable(completable)));
    }

    @Test
    void roundTripDeliversTheSourcesCancellationExceptionItself() {
        CancellationException ce = new CancellationException("upstream");
        RxSenders.toSingle(RxSenders.fromSingle(Single.<Integer>error(ce))).test().assertError(ce);
        RxSenders.toMaybe(RxSenders.fromMaybe(Maybe.<Integer>error(ce))).test().assertError(ce);
        RxSenders.toCompletable(RxSenders.fromCompletable(Completable.error(ce))).test().assertError(ce);
    }

    @Test
    void roundTripStillPassesThroughTheAssemblyHook() {
        java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
        io.reactivex.rxjava3.plugins.RxJavaPlugins.setOnSingleAssembly(s -> {
            seen.incrementAndGet();
            return s;
        });
        try {
            Single<Integer> single = Single.just(1);
            int before = seen.get();
            RxSenders.toSingle(RxSenders.fromSingle(single)).test().assertValue(1);
            assertEquals(before + 1, seen.get());
        } finally {
            io.reactivex.rxjava3.plugins.RxJavaPlugins.setOnSingleAssembly(null);
        }
    }

    @Test
    void disposeStillReachesTheSourceThroughAComposedSender() {
        AtomicInteger disposed = new AtomicInteger();
        TestObserver<Object> to = RxSenders.toSingle(RxSenders.fromSingle(
                Single.never().doOnDispose(disposed::incrementAndGet)).then(v -> v)).test();
        to.dispose();
        assertEquals(1, disposed.get());
        to.assertEmpty();
        RxSenders.toSingle(RxSenders.fromSingle(Single.just(2)).then(v -> v + 1)).test().assertValue(3);
    }

    @Test
    void aFlowableThroughTheSingleValueSenderIsNotUnwrapped() {
        RxSenders.toFlowable(RxSenders.fromFlowable(Flowable.just(1, 2, 3))).test().assertValue(1).assertComplete();
        RxSenders.toMaybe(RxSenders.fromMaybeOptional(Maybe.just(1))).test().assertValue(java.util.Optional.of(1));
    }
}
