package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.exceptions.UndeliverableException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link RxScopes#spawn}: P3149 [exec.spawn] for the five RxJava source types. */
class RxScopesSpawnTest {

    private PluginErrors plugin;
    private final List<Throwable> handled = new CopyOnWriteArrayList<>();
    private CountingScope scope;

    @BeforeEach
    void setUp() {
        plugin = new PluginErrors();
        scope = new CountingScope(handled::add);
    }

    @AfterEach
    void tearDown() {
        scope.close();
        TestReceiver<Void> join = TestReceiver.start(scope.join()).await();
        join.assertValue(null);
        plugin.close();
        assertEquals(List.of(), plugin.errors);
    }

    static java.util.stream.Stream<Supplier<SpawnCases>> cases() {
        return SpawnCases.all();
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("P3149 [exec.spawn]: the count is held until the source terminates")
    void spawn_holdsCountUntilTerminal(Supplier<SpawnCases> factory) {
        SpawnCases src = factory.get();
        Disposable d = src.spawn(scope.getToken());
        assertTrue(src.subscribed(), "subscribed at once");
        assertEquals(1, scope.count());
        assertFalse(d.isDisposed());
        TestReceiver<Void> join = TestReceiver.start(scope.join());
        assertFalse(join.isDone(), "join waits for the spawned work");
        src.succeed();
        assertEquals(0, scope.count());
        assertTrue(d.isDisposed(), "disposed after termination, like a lambda observer");
        join.await().assertValue(null);
        assertEquals(List.of(), handled);
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("P3149 [exec.spawn]: the count is held until dispose, which reaches the source first")
    void spawn_holdsCountUntilDispose(Supplier<SpawnCases> factory) {
        SpawnCases src = factory.get();
        Disposable d = src.spawn(scope.getToken());
        TestReceiver<Void> join = TestReceiver.start(scope.join());
        assertEquals(1, scope.count());
        d.dispose();
        assertFalse(src.subscribed(), "dispose reached the source");
        assertEquals(0, scope.count());
        assertTrue(d.isDisposed());
        join.await().assertValue(null);
        d.dispose(); // idempotent: no second dissociate (it would throw IllegalStateException)
        assertEquals(0, scope.count());
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("P3149 [exec.counting.scope]: requestStop disposes spawned work")
    void requestStop_disposesSpawnedWork(Supplier<SpawnCases> factory) {
        SpawnCases src = factory.get();
        Disposable d = src.spawn(scope.getToken());
        scope.requestStop();
        assertFalse(src.subscribed());
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
        assertEquals(List.of(), handled, "stopped is not an error");
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("P3149 [exec.spawn]: a closed scope never subscribes the source; the Disposable is already disposed")
    void spawn_onClosedScope_neverSubscribes(Supplier<SpawnCases> factory) {
        SpawnCases src = factory.get();
        scope.close();
        Disposable d = src.spawn(scope.getToken());
        assertTrue(d.isDisposed());
        assertFalse(src.subscribed());
        assertEquals(0, scope.count());
        assertEquals(ScopeState.UNUSED_AND_CLOSED, scope.state());
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("P3149 [exec.counting.scope]: after requestStop, new spawns never subscribe")
    void spawn_afterRequestStop_neverSubscribes(Supplier<SpawnCases> factory) {
        SpawnCases src = factory.get();
        scope.requestStop();
        Disposable d = src.spawn(scope.getToken());
        assertTrue(d.isDisposed());
        assertFalse(src.subscribed());
        assertEquals(0, scope.count());
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("decision SC1: an error goes to the scope's handler before the count is released")
    void spawn_error_goesToScopeHandlerBeforeRelease(Supplier<SpawnCases> factory) {
        AtomicLong countSeen = new AtomicLong(-1);
        CountingScope s = new CountingScope(e -> {
            countSeen.set(scopeCount());
            handled.add(e);
        });
        scope = s;
        SpawnCases src = factory.get();
        Disposable d = src.spawn(s.getToken());
        IOException boom = new IOException("boom");
        src.fail(boom);
        assertEquals(List.of(boom), handled);
        assertEquals(1, countSeen.get(), "handled while still associated");
        assertEquals(1, s.errorCount());
        assertEquals(0, s.count());
        assertTrue(d.isDisposed());
    }

    private long scopeCount() {
        return scope.count();
    }

    @ParameterizedTest
    @MethodSource("cases")
    @DisplayName("mapping: an upstream CancellationException is stopped, not an error")
    void spawn_cancellationException_isStoppedNotError(Supplier<SpawnCases> factory) {
        SpawnCases src = factory.get();
        src.spawn(scope.getToken());
        src.fail(new CancellationException());
        assertEquals(List.of(), handled);
        assertEquals(0, scope.errorCount());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("decision SC1: without a scope handler, errors go to Hooks.onErrorDropped")
    void spawn_errorWithoutHandler_goesToHooks() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        dev.senders.Hooks.setOnErrorDropped(dropped::add);
        try {
            CountingScope plain = new CountingScope();
            IllegalStateException boom = new IllegalStateException("boom");
            RxScopes.spawn(Single.error(boom), plain.getToken());
            assertEquals(List.of(boom), dropped);
            assertEquals(1, plain.errorCount());
            plain.close();
            TestReceiver.start(plain.join()).await().assertValue(null);
        } finally {
            dev.senders.Hooks.resetOnErrorDropped();
        }
    }

    @Test
    @DisplayName("RxJava convention: an error after dispose goes to RxJavaPlugins.onError")
    void spawn_errorAfterDispose_goesToRxJavaPlugins() {
        AtomicReference<SingleObserver<? super Integer>> observer = new AtomicReference<>();
        Single<Integer> manual = Single.unsafeCreate(o -> {
            observer.set(o);
            o.onSubscribe(Disposable.empty());
        });
        Disposable d = RxScopes.spawn(manual, scope.getToken());
        d.dispose();
        IOException late = new IOException("late");
        observer.get().onError(late);
        assertEquals(1, plugin.errors.size());
        assertInstanceOf(UndeliverableException.class, plugin.errors.get(0));
        assertSame(late, plugin.errors.get(0).getCause());
        plugin.errors.clear();
        assertEquals(List.of(), handled);
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("P3149 [exec.spawn]: synchronous sources complete during spawn; values are discarded")
    void spawn_synchronousSources_releaseDuringSpawn() {
        AtomicInteger runs = new AtomicInteger();
        assertTrue(RxScopes.spawn(Completable.fromAction(runs::incrementAndGet), scope.getToken()).isDisposed());
        assertTrue(RxScopes.spawn(Single.fromCallable(runs::incrementAndGet), scope.getToken()).isDisposed());
        assertTrue(RxScopes.spawn(Maybe.fromCallable(runs::incrementAndGet), scope.getToken()).isDisposed());
        assertTrue(RxScopes.spawn(Flowable.range(1, 5).doOnNext(i -> runs.incrementAndGet()), scope.getToken()).isDisposed());
        assertTrue(RxScopes.spawn(Observable.range(1, 5).doOnNext(i -> runs.incrementAndGet()), scope.getToken()).isDisposed());
        assertEquals(13, runs.get());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("spawn requests Long.MAX_VALUE from a Flowable, like Flowable.subscribe()")
    void spawn_flowable_requestsUnbounded() {
        List<Long> requests = new CopyOnWriteArrayList<>();
        RxScopes.spawn(Flowable.never().doOnRequest(requests::add), scope.getToken()).dispose();
        assertEquals(List.of(Long.MAX_VALUE), requests);
    }

    @Test
    @DisplayName("P3149 [exec.simple.counting]: spawn works with any token (SimpleCountingScope: dispose only)")
    void spawn_simpleCountingScope() {
        SimpleCountingScope simple = new SimpleCountingScope();
        Disposable d = RxScopes.spawn(Completable.never(), simple.getToken());
        assertEquals(1, simple.count());
        d.dispose();
        assertEquals(0, simple.count());
        simple.close();
        TestReceiver.start(simple.join()).await().assertValue(null);
    }

    /** Requests stop on the scope from another thread and waits for it, from inside subscribe. */
    private void requestStopOnAnotherThreadAndWait(AtomicLong countDuringSubscribe) {
        Thread t = new Thread(scope::requestStop, "stopper");
        t.start();
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        countDuringSubscribe.set(scope.count());
    }

    @Test
    @DisplayName("P3149 [exec.spawn]: a stop during subscribe is completed only after subscribe returned (count held meanwhile)")
    void spawn_stopDuringSubscribe_completesAfterSubscribeReturns() {
        AtomicLong countDuringSubscribe = new AtomicLong(-1);
        Disposable upstream = Disposable.empty();
        Completable source = Completable.unsafeCreate(o -> {
            requestStopOnAnotherThreadAndWait(countDuringSubscribe);
            o.onSubscribe(upstream);
        });
        Disposable d = RxScopes.spawn(source, scope.getToken());
        assertEquals(1, countDuringSubscribe.get(), "still associated while subscribing");
        assertTrue(upstream.isDisposed(), "the upstream arriving after the stop is disposed");
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("Scopes.spawn(RxSenders.from*): a stop during subscribe is completed only after subscribe returned")
    void fromSenders_stopDuringSubscribe_completesAfterSubscribeReturns() {
        AtomicLong countDuringSubscribe = new AtomicLong(-1);
        Disposable upstream = Disposable.empty();
        Single<Integer> single = Single.unsafeCreate(o -> {
            requestStopOnAnotherThreadAndWait(countDuringSubscribe);
            o.onSubscribe(upstream);
        });
        assertTrue(dev.senders.scope.Scopes.spawn(RxSenders.fromSingle(single), scope.getToken()));
        assertEquals(1, countDuringSubscribe.get());
        assertTrue(upstream.isDisposed());
        assertEquals(0, scope.count());

        scope.close();
        TestReceiver.start(scope.join()).await().assertValue(null);
        scope = new CountingScope(handled::add);
        countDuringSubscribe.set(-1);
        AtomicInteger cancels = new AtomicInteger();
        Flowable<Integer> flowable = Flowable.unsafeCreate(sub -> {
            requestStopOnAnotherThreadAndWait(countDuringSubscribe);
            sub.onSubscribe(new org.reactivestreams.Subscription() {
                @Override
                public void request(long n) { }

                @Override
                public void cancel() {
                    cancels.incrementAndGet();
                }
            });
        });
        assertTrue(dev.senders.scope.Scopes.spawn(RxSenders.fromFlowable(flowable), scope.getToken()));
        assertEquals(1, countDuringSubscribe.get());
        assertEquals(1, cancels.get());
        assertEquals(0, scope.count());
        assertEquals(List.of(), handled);
    }

    @Test
    void spawn_rejectsNull() {
        assertThrows(NullPointerException.class, () -> RxScopes.spawn((Single<?>) null, scope.getToken()));
        assertThrows(NullPointerException.class, () -> RxScopes.spawn(Completable.never(), null));
        assertThrows(NullPointerException.class, () -> RxScopes.asContainer(null));
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("spawn returns REFUSED exactly when the scope refused the work, never for work that finished during spawn")
    void spawn_refusedIsDistinguishableFromFinished() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Disposable finished = RxScopes.spawn(Single.just(1), scope.getToken());
        assertTrue(finished.isDisposed(), "the work already ended");
        assertTrue(finished != RxScopes.REFUSED, "finished work is not a refusal");
        scope.close();
        AtomicInteger subscribed = new AtomicInteger();
        Disposable refused = RxScopes.spawn(Single.just(1).doOnSubscribe(d -> subscribed.incrementAndGet()), scope.getToken());
        assertSame(RxScopes.REFUSED, refused);
        assertTrue(refused.isDisposed());
        assertEquals(0, subscribed.get(), "a refused source is never subscribed");
        dev.senders.Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a loop that spawns the next Completable from the completion of the previous one runs 1,000,000 times inline with a bounded stack and leaves no association")
    void spawnLoopFromCompletions_boundedStack() {
        for (boolean stoppable : new boolean[] {true, false}) {
            dev.senders.scope.CountingScope counting = new dev.senders.scope.CountingScope();
            dev.senders.scope.SimpleCountingScope simple = new dev.senders.scope.SimpleCountingScope();
            dev.senders.scope.AsyncScopeToken token = stoppable ? counting.getToken() : simple.getToken();
            java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(1_000_000);
            Runnable[] step = new Runnable[1];
            step[0] = () -> {
                if (left.decrementAndGet() > 0) {
                    RxScopes.spawn(io.reactivex.rxjava3.core.Completable.fromRunnable(step[0]), token);
                }
            };
            RxScopes.spawn(io.reactivex.rxjava3.core.Completable.fromRunnable(step[0]), token);
            org.junit.jupiter.api.Assertions.assertEquals(0, left.get());
            org.junit.jupiter.api.Assertions.assertEquals(0, stoppable ? counting.count() : simple.count());
        }
    }
}
