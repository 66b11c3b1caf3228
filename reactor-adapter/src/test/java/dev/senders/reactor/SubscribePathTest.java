package dev.senders.reactor;

import static dev.senders.reactor.ReactorScopesTest.closeAndJoin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/**
 * How the library's subscribers subscribe a {@code Mono} or {@code Flux} ({@code ReactorSubscribe}:
 * Reactor's own path without its per-call interface tests), and which spawned sources are
 * registered on a stoppable scope's stop token (a {@code Mono} that is a {@code Callable} runs to
 * its end inside {@code subscribe} and is not; everything else is, synchronous or not).
 */
class SubscribePathTest {

    private static final String HOOK = "SubscribePathTest";

    @AfterEach
    void resetHooks() {
        Hooks.resetOnLastOperator(HOOK);
        Hooks.resetOnOperatorError(HOOK);
        Hooks.resetOnErrorDropped();
    }

    /** A Mono whose subscribe(CoreSubscriber) throws: a broken source (Reactive Streams 1.9). */
    static final class ThrowingMono extends Mono<String> {
        final RuntimeException error;

        ThrowingMono(RuntimeException error) {
            this.error = error;
        }

        @Override
        public void subscribe(CoreSubscriber<? super String> actual) {
            throw error;
        }
    }

    @Test
    void spawnedMonoAndFlux_goThroughReactorsLastOperatorHook_oncePerSubscription() {
        List<Publisher<?>> hooked = new CopyOnWriteArrayList<>();
        Hooks.onLastOperator(HOOK, p -> {
            hooked.add(p);
            return p;
        });
        CountingScope scope = new CountingScope();
        Mono<Void> callable = Mono.fromRunnable(() -> { });
        Mono<String> operator = Mono.just("x").map(s -> s + "y");
        Flux<Integer> flux = Flux.range(1, 3);
        ReactorScopes.spawn(callable, scope.getToken());
        ReactorScopes.spawn(operator, scope.getToken());
        ReactorScopes.spawn(flux, scope.getToken());
        assertEquals(List.of(callable, operator, flux), hooked);
        closeAndJoin(scope);
    }

    @Test
    void aSenderFromAMono_goesThroughTheLastOperatorHook() {
        AtomicInteger hooked = new AtomicInteger();
        Hooks.onLastOperator(HOOK, p -> {
            hooked.incrementAndGet();
            return p;
        });
        assertEquals("xy", Senders.syncWait(ReactorSenders.fromMono(Mono.just("x").map(s -> s + "y"))));
        assertEquals(1, hooked.get());
    }

    @Test
    void aLastOperatorHookThatReplacesThePublisher_isWhatIsSubscribed() {
        Hooks.onLastOperator(HOOK, p -> p instanceof Mono ? Mono.just("replaced") : p);
        assertEquals("replaced", Senders.syncWait(ReactorSenders.fromMono(Mono.just("original"))));
    }

    @Test
    void aMonoWhoseSubscribeThrows_failsTheSpawnedWorkWithThatError_asReactorReportsIt() {
        // Reactor reports a throw in subscribe through its operator-error hook (Operators.onOperatorError):
        // the hook's replacement is what a subscriber of Mono.subscribe gets, and what the scope must get
        Hooks.onOperatorError(HOOK, (e, data) -> new IllegalArgumentException("reported by Reactor", e));
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicReference<Throwable> reactors = new AtomicReference<>();
        Subscriber<String> plain = new BaseSubscriber<String>() {
            @Override
            protected void hookOnError(Throwable e) {
                reactors.set(e);
            }
        };
        new ThrowingMono(boom).subscribe(plain);    // Mono.subscribe(Subscriber): Reactor's report
        assertEquals(IllegalArgumentException.class, reactors.get().getClass(), "Reactor's own report");
        assertSame(boom, reactors.get().getCause());

        List<Throwable> seen = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(seen::add);
        Disposable d = ReactorScopes.spawn(new ThrowingMono(boom), scope.getToken());
        assertEquals(1, seen.size(), seen::toString);
        Throwable error = seen.get(0);
        assertEquals(reactors.get().getClass(), error.getClass(), "the same report as Mono.subscribe's");
        assertEquals(reactors.get().getMessage(), error.getMessage());
        assertSame(boom, error.getCause());
        assertEquals(1, scope.errorCount());
        assertTrue(d.isDisposed(), "the work ended");
        assertEquals(0, scope.count(), "and released its association");
        closeAndJoin(scope);
    }

    @Test
    void aSenderFromAMonoWhoseSubscribeThrows_completesWithThatError() {
        IllegalStateException boom = new IllegalStateException("boom");
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> Senders.syncWait(ReactorSenders.fromMono(new ThrowingMono(boom))));
        assertSame(boom, thrown);
    }

    @Test
    void aCallableMono_isCalledAsReactorFusesIt_itsErrorReachesTheScopeUnchanged() {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(seen::add);
        IOException checked = new IOException("checked");
        AssertionError error = new AssertionError("an Error, wrapped by Reactor's call() and unwrapped again");
        ReactorScopes.spawn(Mono.fromCallable(() -> {
            throw checked;
        }), scope.getToken());
        ReactorScopes.spawn(Mono.error(error), scope.getToken());
        ReactorScopes.spawn(Mono.just("a value, discarded"), scope.getToken());
        ReactorScopes.spawn(Mono.empty(), scope.getToken());
        assertEquals(List.of(checked, error), seen);
        assertEquals(2, scope.errorCount());
        closeAndJoin(scope);
    }

    @Test
    void aLastOperatorHookThatReplacesACallableMono_isWhatIsSpawned() {
        AtomicBoolean originalRan = new AtomicBoolean();
        AtomicBoolean replacementSubscribed = new AtomicBoolean();
        Mono<Void> original = Mono.fromRunnable(() -> originalRan.set(true));
        Hooks.onLastOperator(HOOK, p -> (Object) p == original
                ? Mono.defer(() -> {
                    replacementSubscribed.set(true);
                    return Mono.empty();
                })
                : p);
        CountingScope scope = new CountingScope();
        ReactorScopes.spawn(original, scope.getToken());
        assertTrue(replacementSubscribed.get());
        assertFalse(originalRan.get());
        closeAndJoin(scope);
    }

    @Test
    void aCallableMono_spawnedAfterRequestStop_neverRuns() {
        CountingScope scope = new CountingScope();
        scope.requestStop();
        AtomicBoolean ran = new AtomicBoolean();
        Disposable d = ReactorScopes.spawn(Mono.fromRunnable(() -> ran.set(true)), scope.getToken());
        assertFalse(ran.get());
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
        closeAndJoin(scope);
    }

    @Test
    void aCallableMono_whoseStopIsRequestedWhileItRuns_endsWithItsOwnOutcome_anErrorIsCounted() {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        AtomicReference<CountingScope> ref = new AtomicReference<>();
        CountingScope scope = new CountingScope(seen::add);
        ref.set(scope);
        IOException failure = new IOException("failed after the stop");
        Disposable d = ReactorScopes.spawn(Mono.fromCallable(() -> {
            ref.get().requestStop(); // cannot interrupt a running call: the call's outcome stands
            throw failure;
        }), scope.getToken());
        assertEquals(List.of(failure), seen);
        assertEquals(1, scope.errorCount());
        assertTrue(d.isDisposed());
        closeAndJoin(scope);
    }

    @Test
    void aSynchronousButEndlessFlux_isStillStoppedByRequestStopFromAnotherThread() throws Exception {
        CountingScope scope = new CountingScope();
        CountDownLatch emitting = new CountDownLatch(1);
        Flux<Integer> endless = Flux.generate(sink -> {
            emitting.countDown();
            sink.next(1);
        });
        AtomicReference<Disposable> spawned = new AtomicReference<>();
        Thread spawner = new Thread(() -> spawned.set(ReactorScopes.spawn(endless, scope.getToken())));
        spawner.start();
        assertTrue(emitting.await(10, TimeUnit.SECONDS));
        scope.requestStop(); // the spawning thread is still inside subscribe: the registration cancels it
        spawner.join(10_000);
        assertFalse(spawner.isAlive(), "the endless synchronous Flux was not cancelled by the scope's stop");
        assertTrue(spawned.get().isDisposed());
        closeAndJoin(scope);
    }

    @Test
    void aMonoThatIsNotACallable_staysRegistered_andRequestStopCancelsIt() {
        CountingScope scope = new CountingScope();
        AtomicBoolean cancelled = new AtomicBoolean();
        Disposable d = ReactorScopes.spawn(Mono.never().doOnCancel(() -> cancelled.set(true)), scope.getToken());
        assertEquals(1, scope.count());
        scope.requestStop();
        assertTrue(cancelled.get());
        assertTrue(d.isDisposed());
        closeAndJoin(scope);
    }

    @Test
    void withoutTheContextPropagationLibrary_reactorCannotWrapSubscribers() {
        // this module's tests run without io.micrometer:context-propagation: the fast path is the one tested
        assertThrows(ClassNotFoundException.class, () -> Class.forName("io.micrometer.context.ContextRegistry"));
        assertFalse(ReactorSubscribe.contextMayWrap());
    }
}
