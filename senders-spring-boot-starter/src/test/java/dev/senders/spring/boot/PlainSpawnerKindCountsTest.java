package dev.senders.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.reactor.ReactorScopes;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.CountingScope;
import dev.senders.scope.SpawnDecorator;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The plain starter spawner (no decorator but its counting): unnamed Reactor and RxJava work
 * through each kind's token is counted by outcome exactly as on every other route (the counting
 * is told by the adapters' direct path, without a wrapper): started, completed, failed, stopped by
 * the scope's stop or by dispose, refused once the scope is closed.
 */
class PlainSpawnerKindCountsTest {

    final CountingScope scope = new CountingScope("app", e -> { });
    final ScopeSpawner spawner = new ScopeSpawner(scope, "app", SpawnDecorator.NONE);

    private ScopeReport.Counts spawned() {
        return spawner.counters().spawned();
    }

    @Test
    @DisplayName("Reactor: value (synchronous, Callable and asynchronous), error, upstream cancellation, dispose, requestStop and refusal are each counted once in their kind")
    void reactor_eachOutcomeCountedOnce() {
        ReactorScopeSpawner reactor = new ReactorScopeSpawner(spawner);
        assertTrue(reactor.spawn(Mono.fromRunnable(() -> { })));            // Callable fast path
        assertTrue(reactor.spawn(Mono.fromRunnable(() -> { }).hide()));     // subscribed, ends inside subscribe
        Sinks.Empty<Void> later = Sinks.empty();
        assertTrue(reactor.spawn(later.asMono()));
        assertEquals(new ScopeReport.Counts(3, 2, 0, 0, 0), spawned(), "started before it ends; ended before the scope is told");
        later.tryEmitEmpty();
        assertTrue(reactor.spawn(Mono.error(new IllegalStateException("boom"))));
        assertTrue(reactor.spawn(Mono.error(new CancellationException("cancelled upstream")).hide()));
        Disposable disposed = ReactorScopes.spawn(Mono.never(), spawner.token(WorkKind.SPAWNED));
        assertNotSame(ReactorScopes.REFUSED, disposed);
        disposed.dispose();
        disposed.dispose();
        assertTrue(reactor.spawn(Mono.never()));
        assertEquals(new ScopeReport.Counts(7, 3, 1, 2, 0), spawned());
        scope.requestStop();
        scope.close();
        assertFalse(reactor.spawn(Mono.empty()));
        assertEquals(new ScopeReport.Counts(7, 3, 1, 3, 1), spawned());
        assertEquals(1, scope.errorCount());
        assertEquals(0, scope.count());
        assertEquals(new ScopeReport.Counts(0, 0, 0, 0, 0), spawner.counters().executorTasks(), "other kinds are untouched");
    }

    @Test
    @DisplayName("RxJava: value (synchronous and asynchronous), error, upstream cancellation, dispose, requestStop and refusal are each counted once in their kind")
    void rxjava_eachOutcomeCountedOnce() {
        RxScopeSpawner rx = new RxScopeSpawner(spawner);
        assertTrue(rx.spawn(Completable.complete()));
        assertTrue(rx.spawn(Single.just(1)));
        CompletableSubject later = CompletableSubject.create();
        assertTrue(rx.spawn(later));
        assertEquals(new ScopeReport.Counts(3, 2, 0, 0, 0), spawned());
        later.onComplete();
        assertTrue(rx.spawn(Completable.error(new IllegalStateException("boom"))));
        assertTrue(rx.spawn(Completable.error(new CancellationException("cancelled upstream"))));
        io.reactivex.rxjava3.disposables.Disposable disposed = RxScopes.spawn(Completable.never(), spawner.token(WorkKind.SPAWNED));
        assertNotSame(RxScopes.REFUSED, disposed);
        disposed.dispose();
        disposed.dispose();
        assertTrue(rx.spawn(Completable.never()));
        assertEquals(new ScopeReport.Counts(7, 3, 1, 2, 0), spawned());
        scope.requestStop();
        scope.close();
        assertFalse(rx.spawn(Completable.complete()));
        assertSame(RxScopes.REFUSED, RxScopes.spawn(Completable.complete(), spawner.token(WorkKind.SPAWNED)));
        assertEquals(new ScopeReport.Counts(7, 3, 1, 3, 2), spawned());
        assertEquals(1, scope.errorCount());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a loop spawning the next work from the completion of the previous one through the plain spawner runs 1,000,000 times with a bounded stack, each counted")
    void spawnLoopThroughTheKindsToken_boundedStack_andCounted() {
        ReactorScopeSpawner reactor = new ReactorScopeSpawner(spawner);
        AtomicInteger left = new AtomicInteger(1_000_000);
        Runnable[] step = new Runnable[1];
        step[0] = () -> {
            if (left.decrementAndGet() > 0) {
                reactor.spawn(Mono.fromRunnable(step[0]).hide());
            }
        };
        assertTrue(reactor.spawn(Mono.fromRunnable(step[0]).hide()));
        assertEquals(0, left.get());
        assertEquals(new ScopeReport.Counts(1_000_000, 1_000_000, 0, 0, 0), spawned());

        RxScopeSpawner rx = new RxScopeSpawner(spawner);
        left.set(1_000_000);
        step[0] = () -> {
            if (left.decrementAndGet() > 0) {
                rx.spawn(Completable.fromRunnable(step[0]));
            }
        };
        assertTrue(rx.spawn(Completable.fromRunnable(step[0])));
        assertEquals(0, left.get());
        assertEquals(new ScopeReport.Counts(2_000_000, 2_000_000, 0, 0, 0), spawned());
        assertEquals(0, scope.count());
    }
}
