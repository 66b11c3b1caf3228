package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Receiver;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Hooks;
import reactor.test.util.RaceTestUtils;

/**
 * Cancellation races, run many times in a loop: every race ends with exactly one outcome
 * for the subscriber/receiver and no value lost (a value not delivered is in the discard hook).
 */
class CancellationRaceTest {

    static final int ROUNDS = 10_000;

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    void toMono_cancelVersusValueArrival_valueDeliveredOrDiscardedExactlyOnce() {
        for (int i = 0; i < ROUNDS; i++) {
            ManualSender<String> sender = new ManualSender<>();
            Recorder<String> rec = new Recorder<>();
            ReactorSenders.toMono(sender).subscribe(rec);
            rec.subscription.request(1);
            Receiver<? super String> r = sender.receiver();
            RaceTestUtils.race(rec.subscription::cancel, () -> r.setValue("v"));
            boolean got = rec.signals.equals(List.of("onSubscribe", "onNext(v)", "onComplete"));
            boolean dropped = rec.signals.equals(List.of("onSubscribe")) && rec.discarded.equals(List.of("v"));
            assertTrue(got ^ dropped, "round " + i + ": " + rec.signals + " discarded " + rec.discarded);
            assertTrue(r.env().stopToken().stopRequested() || got);
        }
    }

    @Test
    void toMono_requestVersusValueArrival_exactlyOneOnNextAndOnComplete() {
        for (int i = 0; i < ROUNDS; i++) {
            ManualSender<String> sender = new ManualSender<>();
            Recorder<String> rec = new Recorder<>();
            ReactorSenders.toMono(sender).subscribe(rec);
            Receiver<? super String> r = sender.receiver();
            RaceTestUtils.race(() -> rec.subscription.request(1), () -> r.setValue("v"));
            assertEquals(List.of("onSubscribe", "onNext(v)", "onComplete"), rec.signals, "round " + i);
        }
    }

    @Test
    void toMono_cancelVersusRequestWithValueWaiting_deliveredOrDiscardedExactlyOnce() {
        for (int i = 0; i < ROUNDS; i++) {
            ManualSender<String> sender = new ManualSender<>();
            Recorder<String> rec = new Recorder<>();
            ReactorSenders.toMono(sender).subscribe(rec);
            sender.receiver().setValue("v");
            RaceTestUtils.race(rec.subscription::cancel, () -> rec.subscription.request(1));
            boolean got = rec.signals.equals(List.of("onSubscribe", "onNext(v)", "onComplete"));
            boolean dropped = rec.signals.equals(List.of("onSubscribe")) && rec.discarded.equals(List.of("v"));
            assertTrue(got ^ dropped, "round " + i + ": " + rec.signals + " discarded " + rec.discarded);
        }
    }

    @Test
    void toMono_cancelVersusError_errorSignalledOrDroppedToHookExactlyOnce() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        for (int i = 0; i < ROUNDS; i++) {
            dropped.clear();
            ManualSender<String> sender = new ManualSender<>();
            Recorder<String> rec = new Recorder<>();
            ReactorSenders.toMono(sender).subscribe(rec);
            Receiver<? super String> r = sender.receiver();
            IllegalStateException boom = new IllegalStateException("boom");
            RaceTestUtils.race(rec.subscription::cancel, () -> r.setError(boom));
            boolean signalled = rec.signals.equals(List.of("onSubscribe", "onError(IllegalStateException)"));
            boolean toHook = rec.signals.equals(List.of("onSubscribe")) && dropped.equals(List.of(boom));
            assertTrue(signalled ^ toHook, "round " + i + ": " + rec.signals + " dropped " + dropped);
        }
    }

    @Test
    void fromPublisher_stopVersusOnNext_receiverCompletesExactlyOnceAndValueIsNeverLost() {
        for (int i = 0; i < ROUNDS; i++) {
            List<Object> discarded = new CopyOnWriteArrayList<>();
            AtomicReference<Subscriber<? super String>> sub = new AtomicReference<>();
            List<String> upstream = new CopyOnWriteArrayList<>();
            Publisher<String> pub = s -> {
                sub.set(s);
                s.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {
                        upstream.add("request");
                    }

                    @Override
                    public void cancel() {
                        upstream.add("cancel");
                    }
                });
            };
            TestReceiver<String> r = TestReceiver.withStopSource(Env.of(ReactorSenders.CONTEXT, Operators2.discardInto(discarded)));
            ReactorSenders.fromPublisher(pub).connect(r).start();
            RaceTestUtils.race(r::requestStop, () -> sub.get().onNext("v"));
            assertEquals(1, r.completions(), "round " + i);
            if (r.kind() == TestReceiver.Kind.VALUE) {
                assertEquals("v", r.value());
                assertTrue(discarded.isEmpty());
            } else {
                assertEquals(TestReceiver.Kind.STOPPED, r.kind(), "round " + i);
                assertEquals(List.of("v"), discarded, "round " + i + ": the value was not lost");
            }
            assertEquals(List.of("request", "cancel"), upstream, "round " + i + ": cancelled exactly once");
        }
    }

    @Test
    void fromPublisher_stopVersusOnSubscribe_upstreamCancelledExactlyOnce() {
        for (int i = 0; i < ROUNDS; i++) {
            AtomicReference<Subscriber<? super String>> sub = new AtomicReference<>();
            List<String> upstream = new CopyOnWriteArrayList<>();
            Publisher<String> pub = sub::set; // onSubscribe comes later, from the race
            TestReceiver<String> r = TestReceiver.withStopSource();
            ReactorSenders.fromPublisher(pub).connect(r).start();
            Subscription s = new Subscription() {
                @Override
                public void request(long n) {
                    upstream.add("request");
                }

                @Override
                public void cancel() {
                    upstream.add("cancel");
                }
            };
            RaceTestUtils.race(r::requestStop, () -> sub.get().onSubscribe(s));
            assertEquals(TestReceiver.Kind.STOPPED, r.kind());
            assertEquals(1, r.completions());
            assertEquals(1, upstream.stream().filter("cancel"::equals).count(), "round " + i + ": " + upstream);
        }
    }

    @Test
    void fromPublisher_stopVersusOnError_exactlyOneCompletionAndErrorNeverLost() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        for (int i = 0; i < ROUNDS; i++) {
            dropped.clear();
            AtomicReference<Subscriber<? super String>> sub = new AtomicReference<>();
            Publisher<String> pub = s -> {
                sub.set(s);
                s.onSubscribe(new FromPublisherTest.FlagSubscription(new java.util.concurrent.atomic.AtomicBoolean()));
            };
            TestReceiver<String> r = TestReceiver.withStopSource();
            ReactorSenders.fromPublisher(pub).connect(r).start();
            IllegalStateException boom = new IllegalStateException("boom");
            RaceTestUtils.race(r::requestStop, () -> sub.get().onError(boom));
            assertEquals(1, r.completions());
            if (r.kind() == TestReceiver.Kind.ERROR) {
                assertEquals(boom, r.error());
                assertTrue(dropped.isEmpty());
            } else {
                assertEquals(List.of(boom), dropped, "round " + i);
            }
        }
    }

    @Test
    void toMono_cancelVersusSetStopped_cancellationExceptionOrNothingExactlyOnce() {
        for (int i = 0; i < ROUNDS; i++) {
            ManualSender<String> sender = new ManualSender<>();
            Recorder<String> rec = new Recorder<>();
            ReactorSenders.toMono(sender).subscribe(rec);
            Receiver<? super String> r = sender.receiver();
            RaceTestUtils.race(rec.subscription::cancel, r::setStopped);
            boolean signalled = rec.signals.equals(List.of("onSubscribe", "onError(CancellationException)"));
            boolean silent = rec.signals.equals(List.of("onSubscribe"));
            assertTrue(signalled ^ silent, "round " + i + ": " + rec.signals);
        }
    }

    @Test
    void toReactor_disposeVersusRun_taskRunsAtMostOnceAndEndsDisposed() {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(dev.senders.Schedulers.fromExecutor(pool));
            for (int i = 0; i < ROUNDS; i++) {
                java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
                java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(1);
                reactor.core.Disposable d = rs.schedule(() -> {
                    runs.incrementAndGet();
                    finished.countDown();
                });
                d.dispose();
                rs.schedule(finished::countDown); // the pool is FIFO enough: wait for a later task as a barrier
                try {
                    assertTrue(finished.await(10, java.util.concurrent.TimeUnit.SECONDS), "hang guard");
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                assertTrue(runs.get() <= 1, "round " + i);
                assertTrue(d.isDisposed());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void fromPublisher_stopVersusStart_exactlyOneCompletionAndNoSubscriptionLeftRunning() {
        for (int i = 0; i < ROUNDS; i++) {
            List<String> upstream = new CopyOnWriteArrayList<>();
            Publisher<String> pub = s -> {
                upstream.add("subscribe");
                s.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {
                        upstream.add("cancel");
                    }
                });
            };
            TestReceiver<String> r = TestReceiver.withStopSource();
            dev.senders.OperationState op = ReactorSenders.fromPublisher(pub).connect(r);
            RaceTestUtils.race(r::requestStop, op::start);
            assertEquals(1, r.completions(), "round " + i);
            assertEquals(TestReceiver.Kind.STOPPED, r.kind());
            assertTrue(upstream.isEmpty() || upstream.equals(List.of("subscribe", "cancel")),
                    "round " + i + ": either never subscribed or cancelled once: " + upstream);
        }
    }

    @Test
    void fromPublisherLast_stopVersusOnComplete_exactlyOneCompletion() {
        for (int i = 0; i < ROUNDS; i++) {
            AtomicReference<Subscriber<? super Integer>> sub = new AtomicReference<>();
            Publisher<Integer> pub = s -> {
                sub.set(s);
                s.onSubscribe(new FromPublisherTest.FlagSubscription(new java.util.concurrent.atomic.AtomicBoolean()));
            };
            TestReceiver<Integer> r = TestReceiver.withStopSource();
            ReactorSenders.fromPublisherLast(pub).connect(r).start();
            sub.get().onNext(1);
            sub.get().onNext(2);
            RaceTestUtils.race(r::requestStop, sub.get()::onComplete);
            assertEquals(1, r.completions(), "round " + i);
            if (r.kind() == TestReceiver.Kind.VALUE) {
                assertEquals(2, r.value());
            } else {
                assertEquals(TestReceiver.Kind.STOPPED, r.kind());
            }
        }
    }

    @Test
    void fromPublisherLastAndAll_stopVersusOnNext_everyBufferedElementReachesTheDiscardHookOnce() {
        for (int i = 0; i < ROUNDS; i++) {
            for (boolean last : new boolean[] {true, false}) {
                List<Object> discarded = new CopyOnWriteArrayList<>();
                AtomicReference<Subscriber<? super Integer>> sub = new AtomicReference<>();
                Publisher<Integer> pub = s -> {
                    sub.set(s);
                    s.onSubscribe(new FromPublisherTest.FlagSubscription(new java.util.concurrent.atomic.AtomicBoolean()));
                };
                TestReceiver<Object> r = TestReceiver.withStopSource(Env.of(ReactorSenders.CONTEXT, Operators2.discardInto(discarded)));
                (last ? ReactorSenders.<Object>fromPublisherLast(pub) : ReactorSenders.<Integer>fromPublisherAll(pub))
                        .connect(r).start();
                sub.get().onNext(1);
                sub.get().onNext(2);
                RaceTestUtils.race(r::requestStop, () -> sub.get().onNext(3));
                assertEquals(TestReceiver.Kind.STOPPED, r.kind());
                List<Object> sorted = new java.util.ArrayList<>(discarded);
                sorted.sort(null);
                assertEquals(List.of(1, 2, 3), sorted, "round " + i + (last ? " last" : " all"));
            }
        }
    }
}
