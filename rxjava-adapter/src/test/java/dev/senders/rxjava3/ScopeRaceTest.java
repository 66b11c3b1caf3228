package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import io.reactivex.rxjava3.subjects.SingleSubject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Dispose, stop and add racing each other, {@value Races#LOOPS} times each. Exactly-once
 * dissociation is checked by the scope's count returning to 0 (a missing dissociate leaves it
 * above 0 and the join hangs; a second one throws {@code IllegalStateException} from the racer)
 * and by the join completing.
 */
class ScopeRaceTest {

    private PluginErrors plugin;
    private final List<Throwable> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void install() {
        plugin = new PluginErrors();
    }

    @AfterEach
    void reset() {
        plugin.close();
        assertEquals(List.of(), plugin.errors);
        assertEquals(List.of(), handled);
    }

    private static void closeAndJoin(CountingScope scope) {
        scope.close();
        TestReceiver.start(scope.join()).await().assertValue(null);
    }

    @Test
    @DisplayName("spawn: dispose racing the source's success releases the count exactly once")
    void spawn_disposeRacingSuccess() {
        CountingScope scope = new CountingScope(handled::add);
        for (int i = 0; i < Races.LOOPS; i++) {
            SingleSubject<Integer> s = SingleSubject.create();
            Disposable d = RxScopes.spawn(s, scope.getToken());
            Races.race(() -> s.onSuccess(1), d::dispose);
            assertEquals(0, scope.count(), "iteration " + i);
            assertTrue(d.isDisposed());
            assertFalse(s.hasObservers());
        }
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("spawn: dispose racing the source's error: the error reaches the handler or RxJavaPlugins, once")
    void spawn_disposeRacingError() {
        CountingScope scope = new CountingScope(handled::add);
        RuntimeException boom = new RuntimeException("boom");
        for (int i = 0; i < Races.LOOPS; i++) {
            SingleSubject<Integer> s = SingleSubject.create();
            Disposable d = RxScopes.spawn(s, scope.getToken());
            Races.race(() -> s.onError(boom), d::dispose);
            assertEquals(0, scope.count(), "iteration " + i);
        }
        // with SingleSubject, a dispose that wins removes the observer, so the error finds nobody;
        // whatever reached our observer went to exactly one place
        assertEquals(handled.size(), scope.errorCount());
        assertTrue(handled.stream().allMatch(e -> e == boom));
        handled.clear();
        plugin.errors.clear();
        closeAndJoin(scope);
    }

    @Test
    @DisplayName("spawn: the scope's requestStop racing spawn: the work is never left running nor counted")
    void spawn_requestStopRacingSubscribe() {
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope(handled::add);
            CompletableSubject s = CompletableSubject.create();
            AtomicReference<Disposable> d = new AtomicReference<>();
            Races.race(() -> d.set(RxScopes.spawn(s, scope.getToken())), scope::requestStop);
            assertTrue(d.get().isDisposed(), "iteration " + i);
            assertFalse(s.hasObservers(), "iteration " + i);
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("spawn: requestStop racing spawn never releases the count before the source was subscribed and disposed")
    void spawn_requestStopRacingSubscribe_releasesOnlyAfterUpstreamIsFinishedWith() {
        requestStopRacingSubscribe((source, scope) -> RxScopes.spawn(source, scope.getToken()));
    }

    @Test
    @DisplayName("Scopes.spawn(fromCompletable): a stop racing start never completes the operation while it is still subscribing")
    void scopesSpawnFromCompletable_requestStopRacingSubscribe_releasesOnlyAfterSubscribeReturned() {
        requestStopRacingSubscribe((source, scope) -> Scopes.spawn(RxSenders.fromCompletable(source), scope.getToken()));
    }

    @Test
    @DisplayName("Scopes.spawn(fromFlowable) and RxScopes.spawn(Flowable): a stop racing start never completes while still subscribing")
    void flowable_requestStopRacingSubscribe_releasesOnlyAfterSubscribeReturned() {
        for (boolean viaSender : new boolean[] {true, false}) {
            AtomicInteger unassociatedSubscribes = new AtomicInteger();
            for (int i = 0; i < Races.LOOPS; i++) {
                CountingScope scope = new CountingScope(handled::add);
                Flowable<Integer> source = Flowable.unsafeCreate(sub -> {
                    if (scope.count() == 0) {
                        unassociatedSubscribes.incrementAndGet();
                    }
                    sub.onSubscribe(new org.reactivestreams.Subscription() {
                        @Override
                        public void request(long n) { }

                        @Override
                        public void cancel() { }
                    });
                });
                Runnable spawn = viaSender
                        ? () -> Scopes.spawn(RxSenders.fromFlowable(source), scope.getToken())
                        : () -> RxScopes.spawn(source, scope.getToken());
                Races.race(spawn, scope::requestStop);
                assertEquals(0, scope.count(), "iteration " + i);
                closeAndJoin(scope);
            }
            assertEquals(0, unassociatedSubscribes.get(), "subscribed after the association was released");
        }
    }

    private void requestStopRacingSubscribe(java.util.function.BiConsumer<Completable, CountingScope> spawn) {
        AtomicInteger unassociatedSubscribes = new AtomicInteger();
        AtomicInteger subscribes = new AtomicInteger();
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope(handled::add);
            Completable source = Completable.unsafeCreate(o -> {
                subscribes.incrementAndGet();
                if (scope.count() == 0) {
                    unassociatedSubscribes.incrementAndGet(); // the scope already let go of this work
                }
                o.onSubscribe(Disposable.empty());
            });
            Races.race(() -> spawn.accept(source, scope), scope::requestStop);
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
        assertEquals(0, unassociatedSubscribes.get(), "subscribed after the association was released");
        assertTrue(subscribes.get() <= Races.LOOPS);
    }

    @Test
    @DisplayName("spawn: dispose racing the scope's requestStop releases the count exactly once")
    void spawn_disposeRacingRequestStop() {
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope(handled::add);
            Disposable d = RxScopes.spawn(Single.never(), scope.getToken());
            Races.race(d::dispose, scope::requestStop);
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("container: dispose racing add: the added Disposable is disposed and released either way")
    void container_disposeRacingAdd() {
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope();
            ScopeContainer c = RxScopes.asContainer(scope);
            Disposable held = Disposable.empty();
            c.add(held);
            Disposable d = Disposable.empty();
            Races.race(c::dispose, () -> c.add(d));
            assertTrue(d.isDisposed(), "iteration " + i);
            assertTrue(held.isDisposed());
            assertEquals(0, c.size(), "iteration " + i);
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("container: the scope's requestStop racing add: the added Disposable is disposed and released either way")
    void container_requestStopRacingAdd() {
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope();
            ScopeContainer c = RxScopes.asContainer(scope);
            Disposable d = Disposable.empty();
            Races.race(scope::requestStop, () -> c.add(d));
            assertTrue(d.isDisposed(), "iteration " + i);
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("container: dispose racing remove and delete of the same Disposable: one dissociation")
    void container_disposeRacingRemoveAndDelete() {
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope();
            ScopeContainer c = RxScopes.asContainer(scope);
            Disposable a = Disposable.empty();
            Disposable b = Disposable.empty();
            c.add(a);
            c.add(b);
            Races.race(c::dispose, () -> {
                c.remove(a);
                c.delete(b);
            });
            assertTrue(a.isDisposed());
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("container: a lambda-subscribed observer terminating while the container is disposed: one dissociation")
    void container_disposeRacingLambdaObserverTermination() {
        for (int i = 0; i < Races.LOOPS; i++) {
            CountingScope scope = new CountingScope();
            ScopeContainer c = RxScopes.asContainer(scope);
            SingleSubject<Integer> s = SingleSubject.create();
            Disposable d = s.subscribe(v -> { }, handled::add, c);
            Races.race(c::dispose, () -> s.onSuccess(1));
            assertTrue(d.isDisposed());
            assertEquals(0, scope.count(), "iteration " + i);
            closeAndJoin(scope);
        }
    }

    @Test
    @DisplayName("container: concurrent adds and removes from two threads leave nothing associated")
    void container_concurrentAddRemove() {
        CountingScope scope = new CountingScope();
        ScopeContainer c = RxScopes.asContainer(scope);
        for (int i = 0; i < Races.LOOPS; i++) {
            Disposable a = Disposable.empty();
            Disposable b = Disposable.empty();
            Races.race(() -> { c.add(a); c.remove(a); }, () -> { c.add(b); c.delete(b); });
            assertEquals(0, scope.count(), "iteration " + i);
        }
        c.dispose();
        TestReceiver.start(scope.join()).await().assertValue(null);
    }
}
