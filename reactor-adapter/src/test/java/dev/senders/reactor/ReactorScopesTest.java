package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SimpleCountingScope;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.publisher.PublisherProbe;
import reactor.test.publisher.TestPublisher;
import reactor.test.util.RaceTestUtils;

/** ReactorScopes.spawn, nest and asComposite. */
class ReactorScopesTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** Closes the scope and waits (hang guard only) for its join: fails if an association leaked. */
    static void closeAndJoin(CountingScope scope) {
        scope.close();
        ReactorSenders.toMono(scope.join()).block(HANG_GUARD);
        assertEquals(ScopeState.JOINED, scope.state());
        assertEquals(0, scope.count());
    }

    /** A publisher that hands its subscriber out and gives it a subscription recording cancel/demand. */
    static final class ManualPublisher<T> implements Publisher<T> {
        final AtomicReference<Subscriber<? super T>> subscriber = new AtomicReference<>();
        final AtomicBoolean cancelled = new AtomicBoolean();
        final AtomicInteger subscriptions = new AtomicInteger();
        volatile long requested;

        @Override
        public void subscribe(Subscriber<? super T> s) {
            subscriptions.incrementAndGet();
            subscriber.set(s);
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                    requested += n;
                }

                @Override
                public void cancel() {
                    cancelled.set(true);
                }
            });
        }

        Subscriber<? super T> get() {
            return subscriber.get();
        }
    }

    // ---------------------------------------------------------------- spawn

    @Test
    void spawn_holdsTheCountUntilTheTerminalSignal() {
        CountingScope scope = new CountingScope();
        TestPublisher<String> tp = TestPublisher.create();
        Disposable d = ReactorScopes.spawn(tp, scope.getToken());
        tp.assertWasSubscribed();
        tp.assertWasRequested();
        assertEquals(1, scope.count());
        assertFalse(d.isDisposed());
        tp.next("a", "b");
        assertEquals(1, scope.count());
        tp.complete();
        assertEquals(0, scope.count());
        assertTrue(d.isDisposed(), "terminated, like Flux.subscribe()'s Disposable");
        closeAndJoin(scope);
    }

    @Test
    void spawn_requestsUnboundedAndIgnoresElements() {
        CountingScope scope = new CountingScope();
        ManualPublisher<Integer> p = new ManualPublisher<>();
        ReactorScopes.spawn(p, scope.getToken());
        assertEquals(Long.MAX_VALUE, p.requested);
        p.get().onNext(1);
        p.get().onComplete();
        assertEquals(0, scope.errorCount());
        closeAndJoin(scope);
    }

    @Test
    void spawn_holdsTheCountUntilDispose_whichCancelsUpstream() {
        CountingScope scope = new CountingScope();
        PublisherProbe<Object> probe = PublisherProbe.of(Flux.never());
        Disposable d = ReactorScopes.spawn(probe.flux(), scope.getToken());
        assertEquals(1, scope.count());
        d.dispose();
        probe.assertWasCancelled();
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
        d.dispose(); // idempotent: no second dissociate
        assertEquals(0, scope.count());
        closeAndJoin(scope);
    }

    @Test
    void spawn_onAClosedScope_neverSubscribesAndReturnsADisposedDisposable() {
        CountingScope scope = new CountingScope();
        scope.close();
        PublisherProbe<Object> probe = PublisherProbe.empty();
        Disposable d = ReactorScopes.spawn(probe.flux(), scope.getToken());
        assertTrue(d.isDisposed());
        probe.assertWasNotSubscribed();
        assertEquals(0, scope.count());
    }

    @Test
    void spawn_scopeRequestStopCancelsTheSubscription() {
        CountingScope scope = new CountingScope();
        PublisherProbe<Object> probe = PublisherProbe.of(Flux.never());
        Disposable d = ReactorScopes.spawn(probe.flux(), scope.getToken());
        scope.requestStop();
        probe.assertWasCancelled();
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
        closeAndJoin(scope);
    }

    @Test
    void spawn_afterRequestStop_isCancelledAtOnce() {
        CountingScope scope = new CountingScope();
        scope.requestStop();
        PublisherProbe<Object> probe = PublisherProbe.of(Flux.never());
        ReactorScopes.spawn(probe.flux(), scope.getToken());
        probe.assertWasNotSubscribed(); // stop_when saw the stop before the subscription was made
        assertEquals(0, scope.count());
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("decision SC1: an error of spawned work goes to the scope's handler, before the release")
    void spawn_errorGoesToTheScopesHandlerChain() {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        AtomicReference<CountingScope> ref = new AtomicReference<>();
        List<Long> countAtHandler = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(e -> {
            seen.add(e);
            countAtHandler.add(ref.get().count());
        });
        ref.set(scope);
        IllegalStateException boom = new IllegalStateException("boom");
        Disposable d = ReactorScopes.spawn(Flux.error(boom), scope.getToken());
        assertEquals(List.of(boom), seen);
        assertEquals(List.of(1L), countAtHandler);
        assertEquals(1, scope.errorCount());
        assertTrue(d.isDisposed());
        closeAndJoin(scope);
    }

    @Test
    void spawn_upstreamCancellationExceptionIsAStopNotAnError() {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(seen::add);
        ReactorScopes.spawn(Mono.error(new CancellationException()), scope.getToken());
        assertTrue(seen.isEmpty());
        assertEquals(0, scope.errorCount());
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("an error after dispose goes to Operators.onErrorDropped")
    void spawn_errorAfterDisposeIsDroppedToReactorsHook() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(handled::add);
        ManualPublisher<Object> p = new ManualPublisher<>();
        Disposable d = ReactorScopes.spawn(p, scope.getToken());
        d.dispose();
        assertTrue(p.cancelled.get());
        IllegalStateException late = new IllegalStateException("late");
        p.get().onError(late);
        assertEquals(List.of(late), dropped);
        assertTrue(handled.isEmpty());
        closeAndJoin(scope);
    }

    @Test
    void spawn_rejectsNulls() {
        CountingScope scope = new CountingScope();
        assertThrows(NullPointerException.class, () -> ReactorScopes.spawn(null, scope.getToken()));
        assertThrows(NullPointerException.class, () -> ReactorScopes.spawn(Flux.empty(), null));
        assertThrows(NullPointerException.class, () -> ReactorScopes.nest(null, scope.getToken()));
        assertThrows(NullPointerException.class, () -> ReactorScopes.nest(Flux.empty(), null));
        assertThrows(NullPointerException.class, () -> ReactorScopes.asComposite(null));
    }

    @Test
    void spawn_raceDisposeAgainstTerminal_releasesExactlyOnce() {
        CountingScope scope = new CountingScope();
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        for (int i = 0; i < 2000; i++) {
            ManualPublisher<Object> p = new ManualPublisher<>();
            Disposable d = ReactorScopes.spawn(p, scope.getToken());
            Runnable terminal = (i & 1) == 0 ? () -> p.get().onComplete() : () -> p.get().onError(new CancellationException());
            RaceTestUtils.race(d::dispose, terminal);
            assertTrue(d.isDisposed());
            assertEquals(0, scope.count(), "round " + i);
        }
        assertTrue(dropped.isEmpty(), dropped::toString);
        closeAndJoin(scope);
    }

    @Test
    void spawn_raceRequestStopAgainstTerminal_releasesExactlyOnce() {
        for (int i = 0; i < 1000; i++) {
            CountingScope scope = new CountingScope();
            ManualPublisher<Object> p = new ManualPublisher<>();
            ReactorScopes.spawn(p, scope.getToken());
            RaceTestUtils.race(scope::requestStop, () -> p.get().onComplete());
            assertEquals(0, scope.count(), "round " + i);
            closeAndJoin(scope);
        }
    }

    // ---------------------------------------------------------------- nest

    @Test
    void nest_associatesAtSubscribeNotAtAssembly() {
        CountingScope scope = new CountingScope();
        TestPublisher<Integer> tp = TestPublisher.create();
        Flux<Integer> nested = ReactorScopes.nest(tp, scope.getToken());
        assertEquals(0, scope.count(), "assembly associates nothing");
        tp.assertWasNotSubscribed();
        StepVerifier.create(nested)
                .then(() -> assertEquals(1, scope.count()))
                .then(() -> tp.next(1, 2))
                .expectNext(1, 2)
                .then(() -> assertEquals(1, scope.count()))
                .then(tp::complete)
                .verifyComplete();
        assertEquals(0, scope.count());
        // cold: a second subscription associates anew
        StepVerifier.create(ReactorScopes.nest(Flux.just(7), scope.getToken())).expectNext(7).verifyComplete();
        StepVerifier.create(ReactorScopes.nest(Flux.just(7), scope.getToken())).expectNext(7).verifyComplete();
        closeAndJoin(scope);
    }

    @Test
    void nest_dissociatesOnError() {
        CountingScope scope = new CountingScope();
        IllegalStateException boom = new IllegalStateException("boom");
        StepVerifier.create(ReactorScopes.nest(Flux.concat(Flux.just(1), Flux.error(boom)), scope.getToken()))
                .expectNext(1)
                .expectErrorSatisfies(e -> assertSame(boom, e))
                .verify(HANG_GUARD);
        assertEquals(0, scope.errorCount(), "a nested publisher's error is its subscriber's");
        closeAndJoin(scope);
    }

    @Test
    void nest_dissociatesOnCancel_andCancelsUpstream() {
        CountingScope scope = new CountingScope();
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.never());
        StepVerifier.create(ReactorScopes.nest(probe.flux(), scope.getToken()))
                .expectSubscription()
                .then(() -> assertEquals(1, scope.count()))
                .thenCancel()
                .verify(HANG_GUARD);
        probe.assertWasCancelled();
        closeAndJoin(scope);
    }

    @Test
    void nest_take_cancelsFromInsideOnNext_andReleasesAfterItReturned() {
        CountingScope scope = new CountingScope();
        StepVerifier.create(ReactorScopes.nest(Flux.range(1, 1000), scope.getToken()).take(3))
                .expectNext(1, 2, 3)
                .verifyComplete();
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("nest on a closed scope: onError(CancellationException), upstream never subscribed")
    void nest_onAClosedScope_emitsNothingAndNeverSubscribes() {
        CountingScope scope = new CountingScope();
        scope.close();
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.just(1, 2));
        StepVerifier.create(ReactorScopes.nest(probe.flux(), scope.getToken()))
                .expectError(CancellationException.class)
                .verify(HANG_GUARD);
        probe.assertWasNotSubscribed();
        assertEquals(0, scope.count());
    }

    @Test
    void nest_scopeRequestStop_cancelsUpstream_andDownstreamSeesCancellationException() {
        CountingScope scope = new CountingScope();
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.never());
        StepVerifier.create(ReactorScopes.nest(probe.flux(), scope.getToken()))
                .expectSubscription()
                .then(scope::requestStop)
                .expectError(CancellationException.class)
                .verify(HANG_GUARD);
        probe.assertWasCancelled();
        closeAndJoin(scope);
    }

    @Test
    void nest_subscribedAfterRequestStop_failsAtOnceWithoutSubscribingUpstream() {
        CountingScope scope = new CountingScope();
        scope.requestStop();
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.just(1));
        StepVerifier.create(ReactorScopes.nest(probe.flux(), scope.getToken()))
                .expectError(CancellationException.class)
                .verify(HANG_GUARD);
        probe.assertWasNotSubscribed();
        closeAndJoin(scope);
    }

    @Test
    void nest_multiElementWithBackpressure() {
        CountingScope scope = new CountingScope();
        StepVerifier.create(ReactorScopes.nest(Flux.range(1, 10), scope.getToken()), 0)
                .expectSubscription()
                .expectNoEvent(Duration.ofMillis(10))
                .thenRequest(3)
                .expectNext(1, 2, 3)
                .expectNoEvent(Duration.ofMillis(10))
                .thenRequest(7)
                .expectNext(4, 5, 6, 7, 8, 9, 10)
                .verifyComplete();
        closeAndJoin(scope);
    }

    @Test
    void nest_demandMadeBeforeTheUpstreamsOnSubscribeIsForwardedThen() {
        CountingScope scope = new CountingScope();
        AtomicReference<Subscriber<? super Integer>> held = new AtomicReference<>();
        Publisher<Integer> late = held::set; // onSubscribe comes later, from the test
        StepVerifier.create(ReactorScopes.nest(late, scope.getToken()), 3)
                .expectSubscription()
                .then(() -> Flux.range(1, 5).subscribe(held.get()))
                .expectNext(1, 2, 3)
                .thenRequest(2)
                .expectNext(4, 5)
                .verifyComplete();
        closeAndJoin(scope);
    }

    @Test
    void nest_unboundedDemandBeforeOnSubscribeStaysUnbounded() {
        CountingScope scope = new CountingScope();
        AtomicReference<Subscriber<? super Integer>> held = new AtomicReference<>();
        Publisher<Integer> late = held::set;
        ReactorScopes.nest(late, scope.getToken()).subscribe();
        ManualPublisher<Integer> p = new ManualPublisher<>();
        p.subscribe(held.get());
        assertEquals(Long.MAX_VALUE, p.requested);
        held.get().onComplete();
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("RS §3.9: request(0) -> onError(IllegalArgumentException), upstream cancelled")
    void nest_nonPositiveRequestSignalsIllegalArgumentException() {
        CountingScope scope = new CountingScope();
        ManualPublisher<Integer> p = new ManualPublisher<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        ReactorScopes.nest(p, scope.getToken()).subscribe(new BaseSubscriber<Integer>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                s.request(0);
            }

            @Override
            protected void hookOnError(Throwable t) {
                error.set(t);
            }
        });
        assertInstanceOf(IllegalArgumentException.class, error.get());
        assertEquals(0, p.subscriptions.get(), "request(0) inside onSubscribe: the upstream is never subscribed");
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("RS §3.9: request(-1) once running -> upstream cancelled, onError(IllegalArgumentException)")
    void nest_nonPositiveRequestWhileRunningCancelsUpstream() {
        CountingScope scope = new CountingScope();
        ManualPublisher<Integer> p = new ManualPublisher<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        AtomicReference<Subscription> subscription = new AtomicReference<>();
        ReactorScopes.nest(p, scope.getToken()).subscribe(new Subscriber<Integer>() {
            @Override
            public void onSubscribe(Subscription s) {
                subscription.set(s);
                s.request(1);
            }

            @Override
            public void onNext(Integer v) {
            }

            @Override
            public void onError(Throwable t) {
                error.set(t);
            }

            @Override
            public void onComplete() {
            }
        });
        assertEquals(1, p.requested);
        subscription.get().request(-1);
        assertInstanceOf(IllegalArgumentException.class, error.get());
        assertTrue(p.cancelled.get());
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("an upstream error after cancel goes to Operators.onErrorDropped")
    void nest_errorAfterCancelIsDroppedToReactorsHook() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        CountingScope scope = new CountingScope();
        ManualPublisher<Integer> p = new ManualPublisher<>();
        Disposable d = ReactorScopes.nest(p, scope.getToken()).subscribe();
        d.dispose();
        assertTrue(p.cancelled.get());
        IllegalStateException late = new IllegalStateException("late");
        p.get().onError(late);
        assertEquals(List.of(late), dropped);
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("RS §1.3: a stop during onNext on another thread is signalled after that onNext returned")
    void nest_stopDuringOnNext_isDeliveredSeriallyByTheEmitter() throws Exception {
        CountingScope scope = new CountingScope();
        ManualPublisher<Integer> p = new ManualPublisher<>();
        CountDownLatch inOnNext = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> errorThread = new AtomicReference<>();
        AtomicBoolean errorWhileInOnNext = new AtomicBoolean();
        AtomicBoolean inside = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        ReactorScopes.nest(p, scope.getToken()).subscribe(v -> {
            inside.set(true);
            inOnNext.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inside.set(false);
        }, e -> {
            errorWhileInOnNext.set(inside.get());
            errorThread.set(Thread.currentThread());
            done.countDown();
        });
        Thread emitter = new Thread(() -> p.get().onNext(1));
        emitter.start();
        assertTrue(inOnNext.await(10, TimeUnit.SECONDS));
        scope.requestStop(); // returns without signalling: the emitter owns the subscriber
        assertTrue(p.cancelled.get());
        assertEquals(1, done.getCount(), "onError must wait for the onNext in progress");
        assertEquals(1, scope.count());
        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertFalse(errorWhileInOnNext.get());
        assertSame(emitter, errorThread.get());
        emitter.join(10_000);
        closeAndJoin(scope);
    }

    @Test
    void nest_raceCancelAgainstComplete_releasesExactlyOnce() {
        CountingScope scope = new CountingScope();
        for (int i = 0; i < 2000; i++) {
            ManualPublisher<Integer> p = new ManualPublisher<>();
            Disposable d = ReactorScopes.nest(p, scope.getToken()).subscribe();
            RaceTestUtils.race(d::dispose, () -> p.get().onComplete());
            assertEquals(0, scope.count(), "round " + i);
        }
        closeAndJoin(scope);
    }

    @Test
    void nest_raceRequestStopAgainstSubscribe() {
        for (int i = 0; i < 1000; i++) {
            CountingScope scope = new CountingScope();
            PublisherProbe<Integer> probe = PublisherProbe.of(Flux.never());
            AtomicReference<Throwable> error = new AtomicReference<>();
            RaceTestUtils.race(scope::requestStop,
                    () -> ReactorScopes.nest(probe.flux(), scope.getToken()).subscribe(v -> { }, error::set));
            assertInstanceOf(CancellationException.class, error.get(), "round " + i);
            if (probe.wasSubscribed()) {
                probe.assertWasCancelled();
            }
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("RS §1.3 under races: requestStop against a stream of onNext never overlaps signals")
    void nest_raceRequestStopAgainstOnNext_signalsStaySerial() {
        for (int i = 0; i < 500; i++) {
            CountingScope scope = new CountingScope();
            ManualPublisher<Integer> p = new ManualPublisher<>();
            AtomicInteger inFlight = new AtomicInteger();
            AtomicBoolean overlap = new AtomicBoolean();
            AtomicInteger errors = new AtomicInteger();
            ReactorScopes.nest(p, scope.getToken()).subscribe(v -> {
                if (inFlight.incrementAndGet() != 1) {
                    overlap.set(true);
                }
                inFlight.decrementAndGet();
            }, e -> {
                if (inFlight.incrementAndGet() != 1) {
                    overlap.set(true);
                }
                errors.incrementAndGet();
                inFlight.decrementAndGet();
            });
            RaceTestUtils.race(scope::requestStop, () -> {
                for (int k = 0; k < 20; k++) {
                    p.get().onNext(k);
                }
            });
            assertFalse(overlap.get(), "round " + i);
            assertEquals(1, errors.get(), "round " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    void nest_raceCancelAgainstRequestStop_releasesExactlyOnce() {
        for (int i = 0; i < 1000; i++) {
            CountingScope scope = new CountingScope();
            ManualPublisher<Integer> p = new ManualPublisher<>();
            Disposable d = ReactorScopes.nest(p, scope.getToken()).subscribe(v -> { }, e -> { });
            RaceTestUtils.race(d::dispose, scope::requestStop);
            assertTrue(p.cancelled.get());
            closeAndJoin(scope);
        }
    }

    @Test
    void nest_joinWaitsForTheSubscriptionsEnd_notForAssembly() {
        CountingScope scope = new CountingScope();
        Sinks.Many<Integer> sink = Sinks.many().unicast().onBackpressureBuffer();
        ReactorScopes.nest(Flux.never(), scope.getToken()); // assembled, never subscribed: not waited for
        AtomicReference<Throwable> err = new AtomicReference<>();
        ReactorScopes.nest(sink.asFlux(), scope.getToken()).subscribe(v -> { }, err::set);
        scope.close();
        CompletableFuture<Void> joined = ReactorSenders.toMono(scope.join()).toFuture();
        assertFalse(joined.isDone());
        sink.tryEmitComplete();
        joined.orTimeout(10, TimeUnit.SECONDS).join();
        assertNull(err.get());
    }

    @Test
    @DisplayName("a SimpleCountingScope (identity wrap, no stop): nest and spawn still associate and release")
    void nestAndSpawn_withASimpleCountingScope() {
        SimpleCountingScope scope = new SimpleCountingScope();
        StepVerifier.create(ReactorScopes.nest(Flux.range(1, 5), scope.getToken()), 0)
                .then(() -> assertEquals(1, scope.count()))
                .thenRequest(5)
                .expectNext(1, 2, 3, 4, 5)
                .verifyComplete();
        assertEquals(0, scope.count());
        PublisherProbe<Object> probe = PublisherProbe.of(Flux.never());
        Disposable d = ReactorScopes.spawn(probe.flux(), scope.getToken());
        assertEquals(1, scope.count());
        d.dispose();
        probe.assertWasCancelled();
        assertEquals(0, scope.count());
        Disposable cancelledNest = ReactorScopes.nest(Flux.never(), scope.getToken()).subscribe();
        assertEquals(1, scope.count());
        cancelledNest.dispose();
        assertEquals(0, scope.count());
        scope.close();
        ReactorSenders.toMono(scope.join()).block(HANG_GUARD);
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @DisplayName("a SimpleCountingScope: a source that disposes its subscriber while subscribing still ends the work (cancelled, released)")
    void spawn_sourceDisposesItsSubscriberDuringSubscribe_withASimpleCountingScope() {
        SimpleCountingScope scope = new SimpleCountingScope();
        AtomicBoolean cancelled = new AtomicBoolean();
        Publisher<Object> selfDisposing = s -> {
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                    cancelled.set(true);
                }
            });
            ((Disposable) s).dispose(); // the subscriber is the spawn's Disposable
        };
        Disposable d = ReactorScopes.spawn(selfDisposing, scope.getToken());
        assertTrue(d.isDisposed());
        assertTrue(cancelled.get());
        assertEquals(0, scope.count(), "the stop that came during subscribe was completed after it returned");
        scope.close();
        ReactorSenders.toMono(scope.join()).block(HANG_GUARD);
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @DisplayName("a SimpleCountingScope: dispose() racing the source's completion from another thread releases exactly once")
    void spawn_raceDisposeAgainstTerminal_withASimpleCountingScope() {
        for (int i = 0; i < 1000; i++) {
            SimpleCountingScope scope = new SimpleCountingScope();
            ManualPublisher<Object> p = new ManualPublisher<>();
            Disposable d = ReactorScopes.spawn(p, scope.getToken());
            RaceTestUtils.race(d::dispose, () -> p.get().onComplete());
            assertEquals(0, scope.count());
            assertTrue(d.isDisposed());
            scope.close();
            ReactorSenders.toMono(scope.join()).block(HANG_GUARD);
        }
    }

    @Test
    @DisplayName("RS §2.13 broken downstream: a throwing onSubscribe or onError never leaks the association")
    void nest_throwingSubscriberIsReportedAndReleased() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        CountingScope scope = new CountingScope();
        IllegalStateException inSubscribe = new IllegalStateException("onSubscribe");
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.never());
        ReactorScopes.nest(probe.flux(), scope.getToken()).subscribe(new Subscriber<Integer>() {
            @Override
            public void onSubscribe(Subscription s) {
                throw inSubscribe;
            }

            @Override
            public void onNext(Integer v) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onComplete() {
            }
        });
        probe.assertWasNotSubscribed();
        assertEquals(0, scope.count());
        IllegalStateException inOnError = new IllegalStateException("onError");
        ReactorScopes.nest(Flux.<Integer>never(), scope.getToken()).subscribe(new Subscriber<Integer>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.request(1);
            }

            @Override
            public void onNext(Integer v) {
            }

            @Override
            public void onError(Throwable t) {
                throw inOnError;
            }

            @Override
            public void onComplete() {
            }
        });
        assertEquals(1, scope.count());
        scope.requestStop(); // must not throw into this thread
        assertEquals(List.of(inSubscribe, inOnError), dropped);
        closeAndJoin(scope);
    }

    /** A publisher that keeps only a weak reference to its subscriber. */
    private static Publisher<Integer> weaklyHeld(AtomicReference<WeakReference<Object>> ref) {
        return s -> {
            ref.set(new WeakReference<>(s));
            s.onSubscribe(Operators.emptySubscription());
        };
    }

    private static void assertCollected(AtomicReference<WeakReference<Object>> ref) throws InterruptedException {
        for (int i = 0; i < 200 && ref.get().get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(ref.get().get(), "still reachable: the scope's stop source kept the operation");
    }

    @Test
    @DisplayName("a disposed spawn deregisters from the scope's stop source (no leak in a long-lived scope)")
    void spawn_disposeDeregistersFromTheScopesStopSource() throws Exception {
        CountingScope scope = new CountingScope();
        AtomicReference<WeakReference<Object>> ref = new AtomicReference<>();
        ReactorScopes.spawn(weaklyHeld(ref), scope.getToken()).dispose();
        assertEquals(0, scope.count());
        assertCollected(ref);
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("RS §3.13 with a live scope: a cancelled nest is not kept by the scope's stop source")
    void nest_cancelledSubscriptionIsNotKeptByTheScope() throws Exception {
        CountingScope scope = new CountingScope();
        AtomicReference<WeakReference<Object>> ref = new AtomicReference<>();
        ReactorScopes.nest(weaklyHeld(ref), scope.getToken()).subscribe().dispose();
        assertEquals(0, scope.count());
        assertCollected(ref);
        closeAndJoin(scope);
    }

    @Test
    void spawn_raceDisposeAgainstRequestStop_releasesExactlyOnce() {
        for (int i = 0; i < 1000; i++) {
            CountingScope scope = new CountingScope();
            ManualPublisher<Object> p = new ManualPublisher<>();
            Disposable d = ReactorScopes.spawn(p, scope.getToken());
            RaceTestUtils.race(d::dispose, scope::requestStop);
            assertTrue(p.cancelled.get());
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("P3149 nest order: released only after the subscriber's onNext/onComplete returned")
    void nest_releasesAfterTheSubscribersSignalReturned() {
        CountingScope scope = new CountingScope();
        List<Long> countSeenInside = new CopyOnWriteArrayList<>();
        ReactorScopes.nest(Flux.range(1, 10), scope.getToken()).subscribe(new BaseSubscriber<Integer>() {
            @Override
            protected void hookOnNext(Integer v) {
                cancel(); // from inside onNext: the release waits until this onNext returned
                countSeenInside.add(scope.count());
            }
        });
        ReactorScopes.nest(Flux.just(1), scope.getToken()).subscribe(v -> { }, e -> { },
                () -> countSeenInside.add(scope.count()));
        assertEquals(List.of(1L, 1L), countSeenInside);
        closeAndJoin(scope);
    }

    // ---------------------------------------------------------------- asComposite

    @Test
    void composite_addAssociates_removeDissociatesWithoutDisposing() {
        CountingScope scope = new CountingScope();
        Disposable.Composite c = ReactorScopes.asComposite(scope);
        Disposable a = Disposables.single();
        Disposable b = Disposables.single();
        assertTrue(c.add(a));
        assertTrue(c.add(b));
        assertTrue(c.add(a), "already held: held twice, as Disposables.composite() does");
        assertEquals(3, c.size());
        assertEquals(3, scope.count());
        assertTrue(c.remove(a));
        assertTrue(c.remove(a));
        assertFalse(c.remove(a));
        assertFalse(a.isDisposed(), "Disposable.Composite.remove does not dispose");
        assertEquals(1, c.size());
        assertEquals(1, scope.count());
        assertTrue(c.remove(b));
        closeAndJoin(scope);
        assertFalse(b.isDisposed());
    }

    @Test
    void composite_dispose_closesRequestsStopAndDisposesWhatItHolds() {
        CountingScope scope = new CountingScope();
        Disposable.Composite c = ReactorScopes.asComposite(scope);
        Disposable a = Disposables.single();
        Disposable removed = Disposables.single();
        c.add(a);
        c.add(removed);
        c.remove(removed);
        PublisherProbe<Integer> probe = PublisherProbe.of(Flux.never());
        Disposable spawned = ReactorScopes.spawn(probe.flux(), scope.getToken());
        c.dispose();
        assertTrue(c.isDisposed());
        assertTrue(a.isDisposed());
        assertFalse(removed.isDisposed());
        assertTrue(spawned.isDisposed(), "requestStop reached the scope's other work");
        probe.assertWasCancelled();
        assertFalse(scope.state().isOpen(), "closed");
        assertEquals(0, c.size());
        assertEquals(0, scope.count());
        Disposable late = Disposables.single();
        assertFalse(c.add(late), "like a disposed composite");
        assertTrue(late.isDisposed());
        closeAndJoin(scope);
    }

    @Test
    void composite_addOnAClosedScopeDisposesAndReturnsFalse() {
        CountingScope scope = new CountingScope();
        scope.close();
        Disposable.Composite c = ReactorScopes.asComposite(scope);
        Disposable d = Disposables.single();
        assertFalse(c.add(d));
        assertTrue(d.isDisposed());
        assertEquals(0, c.size());
        assertFalse(c.isDisposed());
    }

    @Test
    void composite_addAll() {
        CountingScope scope = new CountingScope();
        Disposable.Composite c = ReactorScopes.asComposite(scope);
        Disposable a = Disposables.single();
        Disposable b = Disposables.single();
        assertTrue(c.addAll(List.of(a, b)));
        assertEquals(2, scope.count());
        c.dispose();
        Disposable x = Disposables.single();
        Disposable y = Disposables.single();
        assertFalse(c.addAll(List.of(x, y)));
        assertTrue(x.isDisposed() && y.isDisposed());
        closeAndJoin(scope);
    }

    @Test
    void composite_joinWaitsForEverythingTrackedUntilRemoved() {
        CountingScope scope = new CountingScope();
        Disposable.Composite c = ReactorScopes.asComposite(scope);
        Sinks.Empty<Void> work = Sinks.empty();
        AtomicReference<Disposable> ref = new AtomicReference<>();
        Disposable d = work.asMono().doFinally(s -> c.remove(ref.get())).subscribe();
        ref.set(d);
        assertTrue(c.add(d));
        scope.close();
        CompletableFuture<Void> joined = ReactorSenders.toMono(scope.join()).toFuture();
        assertFalse(joined.isDone());
        work.tryEmitEmpty();
        joined.orTimeout(10, TimeUnit.SECONDS).join();
        assertEquals(0, c.size());
    }

    @Test
    void composite_raceAddAgainstDispose_everythingEndsDisposedAndReleased() {
        for (int i = 0; i < 1000; i++) {
            CountingScope scope = new CountingScope();
            Disposable.Composite c = ReactorScopes.asComposite(scope);
            Disposable d = Disposables.single();
            AtomicBoolean added = new AtomicBoolean();
            RaceTestUtils.race(() -> added.set(c.add(d)), c::dispose);
            assertTrue(d.isDisposed(), "round " + i);
            assertEquals(0, c.size());
            closeAndJoin(scope);
        }
    }

    @Test
    void composite_raceRemoveAgainstDispose_releasesExactlyOnce() {
        for (int i = 0; i < 1000; i++) {
            CountingScope scope = new CountingScope();
            Disposable.Composite c = ReactorScopes.asComposite(scope);
            Disposable d = Disposables.single();
            c.add(d);
            RaceTestUtils.race(() -> c.remove(d), c::dispose);
            assertEquals(0, c.size());
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("spawn returns REFUSED exactly when the scope refused the work, never for work that finished during spawn")
    void spawn_refusedIsDistinguishableFromFinished() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Disposable finished = ReactorScopes.spawn(reactor.core.publisher.Mono.just(1), scope.getToken());
        assertTrue(finished.isDisposed(), "the work already ended");
        assertTrue(finished != ReactorScopes.REFUSED, "finished work is not a refusal");
        scope.close();
        AtomicBoolean subscribed = new AtomicBoolean();
        Disposable refused = ReactorScopes.spawn(reactor.core.publisher.Mono.just(1).doOnSubscribe(s -> subscribed.set(true)),
                scope.getToken());
        assertSame(ReactorScopes.REFUSED, refused);
        assertTrue(refused.isDisposed());
        assertFalse(subscribed.get(), "a refused publisher is never subscribed");
        dev.senders.Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a loop that spawns the next Mono from the completion of the previous one runs 1,000,000 times inline with a bounded stack and leaves no association")
    void spawnLoopFromCompletions_boundedStack() {
        for (boolean stoppable : new boolean[] {true, false}) {
            CountingScope counting = new CountingScope();
            SimpleCountingScope simple = new SimpleCountingScope();
            dev.senders.scope.AsyncScopeToken token = stoppable ? counting.getToken() : simple.getToken();
            AtomicInteger left = new AtomicInteger(1_000_000);
            Runnable[] step = new Runnable[1];
            step[0] = () -> {
                if (left.decrementAndGet() > 0) {
                    ReactorScopes.spawn(Mono.fromRunnable(step[0]), token);
                }
            };
            ReactorScopes.spawn(Mono.fromRunnable(step[0]), token);
            assertEquals(0, left.get());
            assertEquals(0, stoppable ? counting.count() : simple.count());
        }
    }
}
