package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

/**
 * {@code toMono(fromMono(m).then(f))}: one operator per crossing (decision R4), with exactly the
 * signals the full adapter pair gives. The full pair is reached by making the source a
 * {@code Flux} view of the same {@code Mono}, which the conversions do not fuse.
 */
@DisplayName("toMono(fromMono(m).then(..)): one operator, the round trip's signals")
class StagedRoundTripTest {

    private static final IllegalStateException BOOM = new IllegalStateException("boom");

    private static List<Mono<Integer>> sources() {
        return List.of(Mono.just(1), Mono.empty(), Mono.error(BOOM), Mono.fromCallable(() -> 7));
    }

    private static List<Function<Sender<Integer>, Sender<Integer>>> chains() {
        List<Function<Sender<Integer>, Sender<Integer>>> c = new ArrayList<>();
        c.add(s -> s.then(v -> v == null ? -1 : v + 1));               // null in, value out
        c.add(s -> s.then(v -> null));                                // value in, empty out
        c.add(s -> s.then(v -> { throw new IllegalArgumentException("stage " + v); }));
        c.add(s -> s.uponError(e -> 42));                             // error in, value out
        c.add(s -> s.then(v -> v == null ? 0 : v * 2).uponError(e -> -2).then(v -> v + 100));
        c.add(s -> s.uponError(e -> { throw new IllegalArgumentException("again"); }).then(v -> v));
        return c;
    }

    /** What a subscriber saw, as a comparable string. */
    private static String outcome(Mono<Integer> m) {
        try {
            Integer v = m.block();
            return v == null ? "empty" : "value " + v;
        } catch (RuntimeException e) {
            return "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    @Test
    @DisplayName("every source (value, empty, error) and chain gives what the unfused adapters give")
    void fusedAndUnfusedAgree() {
        for (Mono<Integer> m : sources()) {
            for (Function<Sender<Integer>, Sender<Integer>> chain : chains()) {
                Mono<Integer> fused = ReactorSenders.toMono(chain.apply(ReactorSenders.fromMono(m)));
                Mono<Integer> unfused = ReactorSenders.toMono(chain.apply(ReactorSenders.fromPublisher(m.flux())));
                assertTrue(fused instanceof StagedMono, "fused: " + fused.getClass());
                assertFalse(unfused instanceof StagedMono);
                assertEquals(outcome(unfused), outcome(fused), "source " + m);
            }
        }
    }

    @Test
    @DisplayName("a crossing subscribes the source once, with one operator in between")
    void oneOperatorPerCrossing() {
        Mono<Integer> source = Mono.just(1);
        Mono<Integer> m = ReactorSenders.toMono(ReactorSenders.fromMono(source).then(v -> v + 1));
        assertSame(source, Scannable.from(m).scan(Scannable.Attr.PARENT));
        AtomicInteger subscriptions = new AtomicInteger();
        Mono<Integer> counted = source.doOnSubscribe(s -> subscriptions.incrementAndGet());
        assertEquals(2, ReactorSenders.toMono(ReactorSenders.fromMono(counted).then(v -> v + 1)).block());
        assertEquals(1, subscriptions.get());
    }

    @Test
    @DisplayName("nested crossings are one operator over the innermost Mono, stages applied in order")
    void nestedCrossingsAreOneOperator() {
        Mono<Integer> source = Mono.just(1);
        Mono<Integer> m = source;
        for (int i = 0; i < 3; i++) {
            m = ReactorSenders.toMono(ReactorSenders.fromMono(m).then(v -> v * 10));
        }
        assertSame(source, Scannable.from(m).scan(Scannable.Attr.PARENT));
        assertEquals(1000, m.block());
        Mono<Integer> emptyThenValue = ReactorSenders.toMono(ReactorSenders.fromMono(
                ReactorSenders.toMono(ReactorSenders.fromMono(Mono.just(1)).then(v -> (Integer) null)))
                .then(v -> v == null ? 5 : 6));
        assertEquals(5, emptyThenValue.block(), "the inner empty completion reaches the outer stages as null");
    }

    @Test
    @DisplayName("a value made from an empty Mono waits for demand")
    void valueFromEmptyWaitsForDemand() {
        Mono<Integer> m = ReactorSenders.toMono(ReactorSenders.fromMono(Mono.<Integer>empty()).then(v -> 3));
        StepVerifier.create(m, 0).expectSubscription().expectNoEvent(java.time.Duration.ofMillis(20))
                .thenRequest(1).expectNext(3).verifyComplete();
    }

    @Test
    @DisplayName("a cancel reaches the source; a value waiting for demand goes to the discard hook")
    void cancelReachesSourceAndDiscardsWaitingValue() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Mono<Integer> never = Mono.<Integer>never().doOnCancel(() -> cancelled.set(true));
        ReactorSenders.toMono(ReactorSenders.fromMono(never).then(v -> v)).subscribe().dispose();
        assertTrue(cancelled.get());

        List<Object> discarded = new ArrayList<>();
        Mono<Integer> m = ReactorSenders.toMono(ReactorSenders.fromMono(Mono.<Integer>empty()).then(v -> 9))
                .doOnDiscard(Integer.class, discarded::add);
        m.subscribe(new CoreSubscriber<Integer>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.cancel(); // before any demand: the value made from the empty source waits, then is given up
            }

            @Override
            public void onNext(Integer v) {
                throw new AssertionError("no value after a cancel");
            }

            @Override
            public void onError(Throwable t) {
                throw new AssertionError(t);
            }

            @Override
            public void onComplete() {
            }
        });
        assertEquals(List.of(9), discarded);
    }

    @Test
    @DisplayName("the subscriber's Context reaches the source")
    void contextReachesTheSource() {
        Mono<String> source = Mono.deferContextual(ctx -> Mono.just(ctx.get("k")));
        Mono<String> m = ReactorSenders.toMono(ReactorSenders.fromMono(source).then(v -> v + "!"));
        assertEquals("v!", m.contextWrite(Context.of("k", "v")).block());
    }

    @Test
    @DisplayName("a chain with uponStopped keeps the full adapter: its code runs on a stop")
    void uponStoppedKeepsTheAdapter() {
        Mono<Integer> m = ReactorSenders.toMono(ReactorSenders.fromMono(Mono.just(1)).uponStopped(() -> 0));
        assertFalse(m instanceof StagedMono);
        assertEquals(1, m.block());
    }

    @Test
    @DisplayName("a Flux view of the fused Mono signals the same")
    void toFluxOfAChain() {
        Flux<Integer> f = ReactorSenders.toFlux(ReactorSenders.fromMono(Mono.just(1)).then(v -> v + 1));
        StepVerifier.create(f).expectNext(2).verifyComplete();
    }
}
