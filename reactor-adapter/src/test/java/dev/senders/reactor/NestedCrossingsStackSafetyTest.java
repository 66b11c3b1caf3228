package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.internal.Trampoline;
import dev.senders.scope.CountingScope;
import dev.senders.testkit.DefaultStack;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Stack safety of nested crossings that do not collapse: each level is
 * {@code toMono(fromMono(inner).then(f))} with a Reactor operator after it ({@code map},
 * {@code filter}, {@code flatMap(Mono::just)}, {@code doOnNext}, in turn), so every level is its own
 * fused operator subscribing to the operator below it. 10,000 levels run to their result on a
 * thread with the JVM's default stack size (surefire's main thread may have a bigger one): the
 * subscribe, request, signal and cancel paths each go through the per-thread trampoline often
 * enough. A source completing on another thread takes the signal path on that thread's stack.
 */
@DisplayName("Nested toMono/fromMono crossings with an operator between each level: stack safe at 10,000 levels")
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a hang, not a measurement
class NestedCrossingsStackSafetyTest {

    private static final int DEPTH = 10_000;

    /** The Reactor operator put after level {@code i}: map, filter, flatMap, doOnNext in turn. */
    private static Mono<Integer> operator(Mono<Integer> m, int i) {
        switch (i % 4) {
            case 0: return m.map(v -> v);
            case 1: return m.filter(v -> true);
            case 2: return m.flatMap(Mono::just);
            default: return m.doOnNext(v -> { });
        }
    }

    /** {@code DEPTH} levels of {@code toMono(fromMono(inner).then(v + 1))} and an operator, over {@code innermost}. */
    private static Mono<Integer> nest(Mono<Integer> innermost) {
        return nest(innermost, s -> s);
    }

    /** As {@link #nest(Mono)}, with {@code more} composed after each {@code then} (e.g. a stage that keeps the adapter). */
    private static Mono<Integer> nest(Mono<Integer> innermost, UnaryOperator<Sender<Integer>> more) {
        Mono<Integer> m = innermost;
        for (int i = 0; i < DEPTH; i++) {
            Sender<Integer> s = ReactorSenders.fromMono(m).then(v -> v == null ? null : v + 1);
            m = operator(ReactorSenders.toMono(i % 2 == 0 ? s : more.apply(s)), i);
        }
        return m;
    }

    /** Runs {@code body} on a new thread with the JVM's default stack size and returns its result. */
    private static <T> T onDefaultStack(Callable<T> body) throws Exception {
        return DefaultStack.call(body);
    }

    /** How many trampolined pass-throughs stand between the innermost source and the subscriber of {@code levels} levels. */
    private static long passThroughs(int levels) {
        CoreSubscriber<?>[] innermost = new CoreSubscriber<?>[1];
        Mono<Integer> m = new Mono<Integer>() {
            @Override
            public void subscribe(CoreSubscriber<? super Integer> actual) {
                innermost[0] = actual; // never signals
            }
        };
        for (int i = 0; i < levels; i++) {
            m = ReactorSenders.toMono(ReactorSenders.fromMono(m).then(v -> v)).map(v -> v);
        }
        m.subscribe(new Recorder<>());
        return Scannable.from(innermost[0]).actuals()
                .filter(s -> "toMono(then).trampolined".equals(s.stepName())).count();
    }

    @Test
    @DisplayName("a shallow nesting runs as without nesting (no pass-through); a level subscribed Trampoline.BREAK_DEPTH frames deep gets one")
    void passThroughOnlyFromBreakDepth() {
        assertEquals(0, passThroughs(Trampoline.BREAK_DEPTH - 1));
        assertEquals(1, passThroughs(Trampoline.BREAK_DEPTH));
    }

    @Test
    @DisplayName("a value passes through 10,000 levels with an operator between each, synchronously")
    void value_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> nest(Mono.just(0)).block()));
    }

    @Test
    @DisplayName("an error passes through 10,000 levels unchanged")
    void error_tenThousandLevels() throws Exception {
        IllegalStateException boom = new IllegalStateException("boom");
        Throwable got = onDefaultStack(() -> {
            try {
                nest(Mono.<Integer>error(boom)).block();
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        });
        assertSame(boom, got);
    }

    @Test
    @DisplayName("an empty source completes 10,000 levels empty")
    void empty_tenThousandLevels() throws Exception {
        Recorder<Integer> r = onDefaultStack(() -> {
            Recorder<Integer> rec = new Recorder<>();
            nest(Mono.<Integer>empty()).subscribe(rec);
            rec.subscription.request(1);
            return rec;
        });
        assertEquals(List.of("onSubscribe", "onComplete"), r.signals);
    }

    @Test
    @DisplayName("demand requested after subscribe returned reaches the source through 10,000 levels")
    void lateRequest_tenThousandLevels() throws Exception {
        Recorder<Integer> r = onDefaultStack(() -> {
            Recorder<Integer> rec = new Recorder<>();
            nest(Mono.just(0)).subscribe(rec);
            assertEquals(List.of("onSubscribe"), rec.signals, "no value before demand");
            rec.subscription.request(1);
            return rec;
        });
        assertEquals(List.of("onSubscribe", "onNext(" + DEPTH + ")", "onComplete"), r.signals);
    }

    @Test
    @DisplayName("a value produced on another thread passes through 10,000 levels on that thread's stack")
    void asyncValue_tenThousandLevels() throws Exception {
        Sinks.One<Integer> source = Sinks.one();
        CompletableFuture<Integer> result = onDefaultStack(() -> nest(source.asMono()).toFuture());
        onDefaultStack(() -> source.tryEmitValue(0));
        assertEquals(DEPTH, result.get());
    }

    @Test
    @DisplayName("an error produced on another thread passes through 10,000 levels on that thread's stack")
    void asyncError_tenThousandLevels() throws Exception {
        Sinks.One<Integer> source = Sinks.one();
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<Integer> result = onDefaultStack(() -> nest(source.asMono()).toFuture());
        onDefaultStack(() -> source.tryEmitError(boom));
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, result::get);
        assertSame(boom, e.getCause());
    }

    @Test
    @DisplayName("cancelling a subscription to 10,000 levels reaches the innermost Mono")
    void cancel_tenThousandLevels() throws Exception {
        AtomicBoolean cancelled = new AtomicBoolean();
        Recorder<Integer> r = onDefaultStack(() -> {
            Recorder<Integer> rec = new Recorder<>();
            nest(Mono.<Integer>never().doOnCancel(() -> cancelled.set(true))).subscribe(rec);
            rec.subscription.request(1);
            rec.subscription.cancel();
            return rec;
        });
        assertTrue(cancelled.get(), "the cancel reached the innermost Mono");
        assertEquals(List.of("onSubscribe"), r.signals, "nothing signalled after the cancel");
    }

    @Test
    @DisplayName("a cancel made on another thread while the source is pending reaches the innermost Mono")
    void cancelFromAnotherThread_tenThousandLevels() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        Recorder<Integer> r = onDefaultStack(() -> {
            Recorder<Integer> rec = new Recorder<>();
            nest(Mono.<Integer>never().doOnCancel(cancelled::countDown)).subscribe(rec);
            rec.subscription.request(1);
            return rec;
        });
        onDefaultStack(() -> {
            r.subscription.cancel();
            return null;
        });
        assertTrue(cancelled.await(1, TimeUnit.MINUTES), "the cancel reached the innermost Mono");
    }

    @Test
    @DisplayName("fused and unfused crossings alternating (uponStopped keeps the adapter) are stack safe at 10,000 levels")
    void alternatingFusedAndUnfused_tenThousandLevels() throws Exception {
        UnaryOperator<Sender<Integer>> unfused = s -> s.uponStopped(() -> -1);
        assertEquals(DEPTH, onDefaultStack(() -> nest(Mono.just(0), unfused).block()));
        Sinks.One<Integer> source = Sinks.one();
        CompletableFuture<Integer> result = onDefaultStack(() -> nest(source.asMono(), unfused).toFuture());
        onDefaultStack(() -> source.tryEmitValue(0));
        assertEquals(DEPTH, result.get());
        AtomicBoolean cancelled = new AtomicBoolean();
        onDefaultStack(() -> {
            Recorder<Integer> rec = new Recorder<>();
            nest(Mono.<Integer>never().doOnCancel(() -> cancelled.set(true)), unfused).subscribe(rec);
            rec.subscription.request(1);
            rec.subscription.cancel();
            return null;
        });
        assertTrue(cancelled.get(), "the cancel reached the innermost Mono");
    }

    @Test
    @DisplayName("Flux crossings (toFlux(fromPublisher(..).then(..)) with a Flux operator between) are stack safe at 10,000 levels")
    void flux_tenThousandLevels() throws Exception {
        Integer last = onDefaultStack(() -> {
            Flux<Integer> f = Flux.just(0);
            for (int i = 0; i < DEPTH; i++) {
                f = ReactorSenders.toFlux(ReactorSenders.fromPublisher(f).then(v -> v + 1)).map(v -> v);
            }
            return f.blockLast();
        });
        assertEquals(DEPTH, last);
        Integer fused = onDefaultStack(() -> {
            Flux<Integer> f = Flux.just(0);
            for (int i = 0; i < DEPTH; i++) {
                f = ReactorSenders.toFlux(ReactorSenders.fromMono(f.next()).then(v -> v + 1)).filter(v -> true);
            }
            return f.blockLast();
        });
        assertEquals(DEPTH, fused);
    }

    @Test
    @DisplayName("crossings alternating with ReactorScopes.nest levels are stack safe at 10,000 levels; the scope joins after")
    void alternatingWithNest_tenThousandLevels() throws Exception {
        CountingScope scope = new CountingScope("nested-crossings");
        Integer value = onDefaultStack(() -> {
            Mono<Integer> m = Mono.just(0);
            for (int i = 0; i < DEPTH; i++) {
                Mono<Integer> crossed = ReactorSenders.toMono(ReactorSenders.fromMono(m).then(v -> v + 1));
                m = ReactorScopes.nest(crossed, scope.getToken()).next();
            }
            return m.block();
        });
        assertEquals(DEPTH, value);
        AtomicBoolean cancelled = new AtomicBoolean();
        onDefaultStack(() -> {
            Mono<Integer> m = Mono.<Integer>never().doOnCancel(() -> cancelled.set(true));
            for (int i = 0; i < DEPTH; i++) {
                Mono<Integer> crossed = ReactorSenders.toMono(ReactorSenders.fromMono(m).then(v -> v + 1));
                m = ReactorScopes.nest(crossed, scope.getToken()).next();
            }
            Recorder<Integer> rec = new Recorder<>();
            m.subscribe(rec);
            rec.subscription.request(1);
            rec.subscription.cancel();
            return null;
        });
        assertTrue(cancelled.get(), "the cancel reached the innermost Mono");
        ReactorScopesTest.closeAndJoin(scope); // every nest released its association
    }

    @Test
    @DisplayName("a sender run through 10,000 levels of fromMono(toMono(..).map(..)).then(..) completes under syncWait")
    void senderThroughMonos_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> {
            Sender<Integer> s = Senders.just(0);
            for (int i = 0; i < DEPTH; i++) {
                s = ReactorSenders.fromMono(ReactorSenders.toMono(s).map(v -> v)).then(v -> v + 1);
            }
            return Senders.syncWait(s);
        }));
    }

    @Test
    @DisplayName("an empty value made by the stages of 10,000 levels completes empty")
    void nullResult_tenThousandLevels() throws Exception {
        assertNull(onDefaultStack(() -> nest(Mono.just(0).filter(v -> false)).block()));
    }
}
