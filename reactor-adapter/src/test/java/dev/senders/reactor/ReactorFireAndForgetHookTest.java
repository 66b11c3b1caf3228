package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.CorePublisher;
import reactor.core.CoreSubscriber;
import reactor.core.Fuseable;
import reactor.core.Scannable;
import reactor.core.publisher.ConnectableFlux;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.publisher.ParallelFlux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * {@link FireAndForget}'s last-operator hook: what a subscriber that is not found sees is what it
 * sees without the hook (fusion, {@code Scannable} parent, the publisher's shape), and installing
 * or removing the hook while subscriptions start finds or lets through each one.
 */
class ReactorFireAndForgetHookTest extends HookTestFixture {

    @Test
    void aFusedRangeMapChainStillFusesWithTheHookInstalled() {
        install(FireAndForgetMode.TRACK);
        StepVerifier.create(Flux.range(1, 5).map(x -> x * 2))
                .expectFusion(Fuseable.SYNC)
                .expectNext(2, 4, 6, 8, 10)
                .verifyComplete();
        StepVerifier.create(Flux.range(1, 3).map(x -> x + 1).publishOn(Schedulers.immediate()))
                .expectFusion(Fuseable.ASYNC)
                .expectNext(2, 3, 4)
                .verifyComplete();
        assertEquals(0, tracker.foundCount());
    }

    @Test
    void theHooksPublisherKeepsTheSourcesShapeAndFuseability() {
        install(FireAndForgetMode.REPORT);
        Flux<Integer> fused = Flux.range(1, 3).map(x -> x);
        Flux<Integer> hidden = Flux.range(1, 3).hide();
        Mono<Integer> fusedMono = Mono.just(1).map(x -> x);
        ParallelFlux<Integer> parallel = Flux.range(1, 4).parallel(2);
        assertInstanceOf(Flux.class, Operators.onLastAssembly(fused));
        assertInstanceOf(Fuseable.class, Operators.onLastAssembly(fused));
        assertFalse(Operators.onLastAssembly(hidden) instanceof Fuseable);
        assertInstanceOf(Mono.class, Operators.onLastAssembly(fusedMono));
        assertInstanceOf(Fuseable.class, Operators.onLastAssembly(fusedMono));
        assertInstanceOf(ParallelFlux.class, Operators.onLastAssembly(parallel));
        assertEquals(2, ((ParallelFlux<?>) Operators.onLastAssembly(parallel)).parallelism());
    }

    @Test
    void theScannableParentOfTheHooksPublisherIsTheSource() {
        install(FireAndForgetMode.TRACK);
        Flux<Integer> source = Flux.range(1, 3).map(x -> x).publishOn(Schedulers.immediate(), 7);
        CorePublisher<Integer> hooked = Operators.onLastAssembly(source);
        assertSame(source, Scannable.from(hooked).scan(Scannable.Attr.PARENT));
        assertEquals(7, Scannable.from(hooked).scan(Scannable.Attr.PREFETCH));
        Mono<Integer> mono = Mono.just(1).map(x -> x);
        assertSame(mono, Scannable.from(Operators.onLastAssembly(mono)).scan(Scannable.Attr.PARENT));
    }

    @Test
    void eachRailOfAParallelFluxSubscribedWithALambdaIsFound() {
        install(FireAndForgetMode.TRACK);
        AtomicInteger sum = new AtomicInteger();
        Flux.range(1, 4).parallel(2).runOn(Schedulers.immediate()).subscribe(sum::addAndGet);
        assertEquals(10, sum.get());
        assertEquals(2, tracker.foundCount());
        assertEquals(0, tracker.activeCount());
        assertEquals(0, scope.count());
    }

    @Test
    void lambdaSubscriptionsToAConnectableAndToGroupedFluxesAreFound() {
        install(FireAndForgetMode.TRACK);
        AtomicInteger sum = new AtomicInteger();
        ConnectableFlux<Integer> published = Flux.range(1, 3).publish();
        published.subscribe(sum::addAndGet);
        assertEquals(1, tracker.activeCount(), "found, and running until the connect");
        published.connect();
        assertEquals(6, sum.get());
        AtomicInteger groups = new AtomicInteger();
        Flux.range(1, 4).groupBy(x -> x % 2).subscribe(g -> {
            groups.incrementAndGet();
            g.subscribe(sum::addAndGet);
        });
        assertEquals(2, groups.get());
        assertEquals(16, sum.get());
        assertEquals(4, tracker.foundCount(), "the connectable's, the outer groupBy's and each group's");
        assertEquals(0, tracker.activeCount());
        assertEquals(0, scope.count());
    }

    @Test
    void aPublisherOfAnotherShapeFromAnotherHookIsStillTested() {
        Hooks.onLastOperator("another-shape", p -> {
            @SuppressWarnings("unchecked")
            CorePublisher<Object> core = (CorePublisher<Object>) p;
            Publisher<Object> plain = s -> core.subscribe(Operators.toCoreSubscriber(s));
            return plain;
        });
        install(FireAndForgetMode.TRACK);
        AtomicReference<Object> seen = new AtomicReference<>();
        Mono.just("x").subscribe(seen::set);
        assertEquals("x", seen.get());
        assertEquals(1, tracker.foundCount());
        assertEquals("y", Mono.just("y").block());
        assertEquals(1, tracker.foundCount());
    }

    @Test
    void installingAndRemovingTheHookWhileSubscriptionsStartFindsOrLetsThroughEachOne() throws Exception {
        int threads = 2;
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong subscribed = new AtomicLong();
        AtomicLong received = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                started.countDown();
                try {
                    while (running.get()) {
                        Mono.just(1).map(x -> x).subscribe(x -> received.incrementAndGet(), failure::set);
                        subscribed.incrementAndGet();
                        if (Mono.just(2).block() != 2) {
                            failure.set(new AssertionError("block() lost its value"));
                        }
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            w.start();
            workers.add(w);
        }
        assertTrue(started.await(10, TimeUnit.SECONDS));
        List<FireAndForgetTracker> trackers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            FireAndForgetTracker t = FireAndForget.install(scope, i % 2 == 0 ? FireAndForgetMode.TRACK : FireAndForgetMode.REPORT,
                    ReactorFireAndForgetTest.FRAMEWORK, false);
            trackers.add(t);
            Thread.onSpinWait();
            t.close();
        }
        running.set(false);
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(w.isAlive());
        }
        assertSame(null, failure.get());
        assertEquals(subscribed.get(), received.get(), "every subscription got its element, found or not");
        for (FireAndForgetTracker t : trackers) {
            assertEquals(0, t.activeCount(), "a found subscription ended and left its tracker's list");
        }
        assertEquals(0, scope.count(), "every tracked subscription released its association");
        scope.close();
        Senders.syncWait(scope.join());
    }
}
