package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import io.reactivex.rxjava3.observers.TestObserver;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.io.IOException;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ToRxTest {

    @Test
    void toSingle_valueIsOnSuccess() {
        RxSenders.toSingle(Senders.just(5)).test().assertValue(5).assertComplete();
    }

    @Test
    void toSingle_nullValueIsNoSuchElementException() {
        RxSenders.toSingle(Senders.<Integer>just(null)).test().assertError(NoSuchElementException.class);
    }

    @Test
    void toSingle_errorIsOnError() {
        IOException e = new IOException("x");
        RxSenders.toSingle(Senders.<Integer>justError(e)).test().assertError(e);
    }

    @Test
    void toSingle_stoppedNotCausedByDisposeIsCancellationException() {
        RxSenders.toSingle(Senders.<Integer>justStopped()).test().assertError(CancellationException.class);
    }

    @Test
    void toSingle_disposeRequestsStopOnTheReceiversToken() {
        ManualSender<Integer> s = new ManualSender<>(true);
        TestObserver<Integer> to = RxSenders.toSingle(s).test();
        assertEquals(0, s.stopsSeen());
        to.dispose();
        assertEquals(1, s.stopsSeen());
        to.assertEmpty(); // the stopped completion caused by our dispose is not an error
        to.dispose();
        assertEquals(1, s.stopsSeen());
    }

    @Test
    void toSingle_eachSubscriptionConnectsAnewWithItsOwnStopToken() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestObserver<Integer> a = RxSenders.toSingle(s).test();
        dev.senders.Receiver<? super Integer> first = s.receiver();
        TestObserver<Integer> b = RxSenders.toSingle(s).test();
        assertEquals(2, s.connects());
        assertTrue(first != s.receiver());
        a.dispose();
        assertEquals(1, s.stopsSeen());
        assertTrue(!first.env().stopToken().equals(s.receiver().env().stopToken()));
        assertTrue(!s.receiver().env().stopToken().stopRequested());
        s.receiver().setValue(3);
        b.assertValue(3);
    }

    @Test
    void toSingle_disposedInsideOnSubscribeNeverStarts() {
        ManualSender<Integer> s = new ManualSender<>(true);
        TestObserver<Integer> to = new TestObserver<>();
        to.dispose();
        RxSenders.toSingle(s).subscribe(to);
        assertEquals(1, s.connects());
        assertEquals(0, s.starts());
    }

    @Test
    void toSingle_connectThrowingIsOnError() {
        Sender<Integer> bad = r -> { throw new IllegalStateException("connect failed"); };
        RxSenders.toSingle(bad).test().assertError(IllegalStateException.class);
    }

    @Test
    void toMaybe_nullValueIsEmpty() {
        RxSenders.toMaybe(Senders.<Integer>just(null)).test().assertNoValues().assertComplete();
        RxSenders.toMaybe(Senders.just(1)).test().assertValue(1).assertComplete();
        RxSenders.toMaybe(Senders.<Integer>justStopped()).test().assertError(CancellationException.class);
        RxSenders.toMaybe(Senders.<Integer>justError(new IOException())).test().assertError(IOException.class);
    }

    @Test
    void toCompletable_valueIsIgnored() {
        RxSenders.toCompletable(Senders.just("ignored")).test().assertComplete();
        RxSenders.toCompletable(Senders.just()).test().assertComplete();
        RxSenders.toCompletable(Senders.justStopped()).test().assertError(CancellationException.class);
        RxSenders.toCompletable(Senders.justError(new IOException())).test().assertError(IOException.class);
    }

    @Test
    void toMaybeAndToCompletable_disposeRequestsStop() {
        ManualSender<Integer> s = new ManualSender<>(true);
        RxSenders.toMaybe(s).test().dispose();
        RxSenders.toCompletable(s).test().dispose();
        assertEquals(2, s.stopsSeen());
    }

    @Test
    void toFlowable_valueIsEmittedOnlyAfterDemand() {
        TestSubscriber<Integer> ts = RxSenders.toFlowable(Senders.just(4)).test(0);
        ts.assertEmpty(); // rule 1.1: no onNext without demand, not even onComplete before the value
        ts.request(1);
        ts.assertValue(4).assertComplete();
    }

    @Test
    void toFlowable_valueArrivingAfterRequestIsEmittedByTheCompletingThread() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(1);
        ts.assertEmpty();
        s.receiver().setValue(8);
        ts.assertValue(8).assertComplete();
    }

    @Test
    void toFlowable_nullValueIsEmptyCompletionWithoutDemand() {
        RxSenders.toFlowable(Senders.<Integer>just(null)).test(0).assertNoValues().assertComplete();
    }

    @Test
    void toFlowable_errorAndStoppedNeedNoDemand() {
        RxSenders.toFlowable(Senders.<Integer>justError(new IOException())).test(0).assertError(IOException.class);
        RxSenders.toFlowable(Senders.<Integer>justStopped()).test(0).assertError(CancellationException.class);
    }

    @Test
    void toFlowable_cancelRequestsStopAndSignalsNothing() {
        ManualSender<Integer> s = new ManualSender<>(true);
        TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(1);
        ts.cancel();
        assertEquals(1, s.stopsSeen());
        ts.assertEmpty();
    }

    @Test
    void toFlowable_cancelWhileValueWaitsForDemandDropsIt() {
        ManualSender<Integer> s = new ManualSender<>(false);
        TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(0);
        s.receiver().setValue(1);
        ts.cancel();
        ts.request(1);
        ts.assertEmpty();
        assertEquals(0, s.stopsSeen()); // nothing to stop: the sender had completed
    }

    @Test
    void toFlowable_nonPositiveRequestIsIllegalArgumentAndStopsTheWork_rule3_9() {
        ManualSender<Integer> s = new ManualSender<>(false);
        AtomicInteger errors = new AtomicInteger();
        // a FlowableSubscriber is not wrapped in RxJava's StrictSubscriber: our own §3.9 check answers
        RxSenders.toFlowable(s).subscribe(new io.reactivex.rxjava3.core.FlowableSubscriber<Integer>() {
            @Override public void onSubscribe(org.reactivestreams.Subscription sub) { sub.request(0); }
            @Override public void onNext(Integer t) { }
            @Override public void onError(Throwable t) {
                assertInstanceOf(IllegalArgumentException.class, t);
                errors.incrementAndGet();
            }
            @Override public void onComplete() { }
        });
        assertEquals(1, errors.get());
        // the subscription ended inside onSubscribe, as with a cancel there: the operation never starts
        assertEquals(0, s.starts());
    }

    @Test
    void to_nullArgumentsAreRejected() {
        assertThrows(NullPointerException.class, () -> RxSenders.toSingle(null));
        assertThrows(NullPointerException.class, () -> RxSenders.toMaybe(null));
        assertThrows(NullPointerException.class, () -> RxSenders.toCompletable(null));
        assertThrows(NullPointerException.class, () -> RxSenders.toFlowable(null));
    }
}
