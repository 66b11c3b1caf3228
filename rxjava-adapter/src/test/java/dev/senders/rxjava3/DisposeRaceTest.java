package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.observers.TestObserver;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.schedulers.TestScheduler;
import io.reactivex.rxjava3.subjects.SingleSubject;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dispose/cancel/stop racing completion and request, {@value Races#LOOPS} times each: exactly one
 * signal reaches the consumer, and an error is never lost (it reaches either the consumer or
 * RxJavaPlugins.onError, exactly once).
 */
class DisposeRaceTest {

    private PluginErrors plugin;

    @BeforeEach
    void install() {
        plugin = new PluginErrors();
    }

    @AfterEach
    void reset() {
        plugin.close();
    }

    @Test
    void toSingle_disposeRacingSetValue_deliversAtMostOnceAndReportsNothing() {
        int delivered = 0;
        for (int i = 0; i < Races.LOOPS; i++) {
            ManualSender<Integer> s = new ManualSender<>(false);
            TestObserver<Integer> to = RxSenders.toSingle(s).test();
            Races.race(() -> s.receiver().setValue(1), to::dispose);
            assertTrue(to.values().size() <= 1);
            to.assertNoErrors();
            delivered += to.values().size();
            // either the value was delivered, or dispose came first and its stop request reached the sender
            assertEquals(1, to.values().size() + s.stopsSeen(), "iteration " + i);
        }
        assertEquals(0, plugin.errors.size());
        assertTrue(delivered <= Races.LOOPS);
    }

    @Test
    void toSingle_disposeRacingSetError_errorReachesObserverOrPluginsExactlyOnce() {
        for (int i = 0; i < Races.LOOPS; i++) {
            ManualSender<Integer> s = new ManualSender<>(false);
            java.util.concurrent.atomic.AtomicInteger observed = new java.util.concurrent.atomic.AtomicInteger();
            TestObserver<Integer> to = RxSenders.toSingle(s).doOnError(x -> observed.incrementAndGet()).test();
            IOException e = new IOException("race " + i);
            int before = plugin.errors.size();
            Races.race(() -> s.receiver().setError(e), to::dispose);
            int toPlugins = plugin.errors.size() - before;
            int toObserver = observed.get();
            assertEquals(1, toPlugins + toObserver, "iteration " + i);
            if (toPlugins == 1) {
                assertSame(e, plugin.errors.get(before).getCause());
            }
        }
    }

    @Test
    void toFlowable_requestRacingSetValue_exactlyOneOnNextThenOnComplete() {
        for (int i = 0; i < Races.LOOPS; i++) {
            ManualSender<Integer> s = new ManualSender<>(false);
            TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(0);
            int v = i;
            Races.race(() -> s.receiver().setValue(v), () -> ts.request(1));
            ts.assertValue(v).assertComplete();
        }
        assertEquals(0, plugin.errors.size());
    }

    @Test
    void toFlowable_cancelRacingSetValue_atMostOneOnNextAndNeverAPartialSequence() {
        for (int i = 0; i < Races.LOOPS; i++) {
            ManualSender<Integer> s = new ManualSender<>(false);
            TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(1);
            Races.race(() -> s.receiver().setValue(1), ts::cancel);
            ts.assertNoErrors();
            if (ts.values().isEmpty()) {
                ts.assertNotComplete();
            } else {
                ts.assertValue(1); // onComplete may be skipped once cancelled (rule 3.7)
            }
        }
        assertEquals(0, plugin.errors.size());
    }

    @Test
    void toFlowable_cancelRacingRequestWithValueWaiting_atMostOneOnNext() {
        for (int i = 0; i < Races.LOOPS; i++) {
            ManualSender<Integer> s = new ManualSender<>(false);
            TestSubscriber<Integer> ts = RxSenders.toFlowable(s).test(0);
            s.receiver().setValue(1);
            Races.race(() -> ts.request(1), ts::cancel);
            assertTrue(ts.values().size() <= 1);
            ts.assertNoErrors();
        }
        assertEquals(0, plugin.errors.size());
    }

    @Test
    void fromSingle_stopRacingOnSuccess_receiverCompletesExactlyOnce() {
        int values = 0, stops = 0;
        for (int i = 0; i < Races.LOOPS; i++) {
            SingleSubject<Integer> subject = SingleSubject.create();
            TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromSingle(subject));
            Races.race(() -> subject.onSuccess(1), r::requestStop);
            assertEquals(1, r.completions(), "iteration " + i);
            assertTrue(!subject.hasObservers());
            if (r.kind() == TestReceiver.Kind.VALUE) {
                values++;
            } else {
                assertEquals(TestReceiver.Kind.STOPPED, r.kind());
                stops++;
            }
        }
        assertEquals(Races.LOOPS, values + stops);
        assertEquals(0, plugin.errors.size());
    }

    @Test
    void fromSingle_stopRacingOnError_errorReachesReceiverOrPluginsExactlyOnce() {
        for (int i = 0; i < Races.LOOPS; i++) {
            AtomicReference<SingleObserver<? super Integer>> obs = new AtomicReference<>();
            Single<Integer> raw = Single.unsafeCreate(o -> {
                o.onSubscribe(Disposable.empty());
                obs.set(o);
            });
            TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromSingle(raw));
            IOException e = new IOException();
            int before = plugin.errors.size();
            Races.race(() -> obs.get().onError(e), r::requestStop);
            assertEquals(1, r.completions());
            int toPlugins = plugin.errors.size() - before;
            int toReceiver = r.kind() == TestReceiver.Kind.ERROR ? 1 : 0;
            assertEquals(1, toPlugins + toReceiver, "iteration " + i);
        }
    }

    @Test
    void fromFlowable_stopRacingOnNext_receiverCompletesExactlyOnceAndUpstreamIsCancelled() {
        for (int i = 0; i < Races.LOOPS; i++) {
            PublishProcessor<Integer> pp = PublishProcessor.create();
            TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromFlowable(pp));
            Races.race(() -> pp.onNext(7), r::requestStop);
            assertEquals(1, r.completions(), "iteration " + i);
            assertTrue(r.kind() == TestReceiver.Kind.STOPPED || (r.kind() == TestReceiver.Kind.VALUE && r.value() == 7));
            assertTrue(!pp.hasSubscribers());
        }
        assertEquals(0, plugin.errors.size());
    }

    @Test
    void fromRxScheduler_stopRacingTheTask_receiverCompletesExactlyOnce() {
        for (int i = 0; i < Races.LOOPS; i++) {
            TestScheduler ts = new TestScheduler();
            TestReceiver<Void> r = TestReceiver.start(RxSchedulers.from(ts).schedule());
            Races.race(ts::triggerActions, r::requestStop);
            assertEquals(1, r.completions(), "iteration " + i);
        }
    }

    @Test
    void fromObservable_stopRacingOnNext_receiverCompletesExactlyOnceAndUpstreamIsDisposed() {
        for (int i = 0; i < Races.LOOPS; i++) {
            io.reactivex.rxjava3.subjects.PublishSubject<Integer> subject =
                    io.reactivex.rxjava3.subjects.PublishSubject.create();
            TestReceiver<Integer> r = TestReceiver.start(RxSenders.fromObservable(subject));
            Races.race(() -> subject.onNext(7), r::requestStop);
            assertEquals(1, r.completions(), "iteration " + i);
            assertTrue(r.kind() == TestReceiver.Kind.STOPPED || (r.kind() == TestReceiver.Kind.VALUE && r.value() == 7));
            assertTrue(!subject.hasObservers());
        }
        assertEquals(0, plugin.errors.size());
    }

    @Test
    void toCompletable_disposeRacingSetStopped_exactlyOneOfCancellationErrorOrStopRequest() {
        for (int i = 0; i < Races.LOOPS; i++) {
            ManualSender<Integer> s = new ManualSender<>(false); // completes only through the race
            java.util.concurrent.atomic.AtomicInteger cancellations = new java.util.concurrent.atomic.AtomicInteger();
            TestObserver<Void> to = RxSenders.toCompletable(s)
                    .doOnError(e -> {
                        if (e instanceof java.util.concurrent.CancellationException) {
                            cancellations.incrementAndGet();
                        }
                    })
                    .test();
            Races.race(() -> s.receiver().setStopped(), to::dispose);
            // the sender stopped on its own first: the observer hears CancellationException and
            // dispose has nothing to stop; or our dispose came first: the stop request reaches the
            // sender and its stopped completion is the expected answer, reported nowhere
            assertEquals(1, cancellations.get() + s.stopsSeen(), "iteration " + i);
            to.assertNotComplete();
        }
        assertEquals(0, plugin.errors.size());
    }
}
