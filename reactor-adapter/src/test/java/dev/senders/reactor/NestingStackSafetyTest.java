package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.senders.Senders;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Mono -> sender -> Mono nesting at any depth, on the JVM's default thread stack: each level is
 * {@code toMono(fromMono(inner).then(f))}, so the round-trip unwrapping cannot collapse it and
 * every level really subscribes through the adapter.
 */
@DisplayName("toMono/fromMono: 10,000 nested levels are stack safe")
class NestingStackSafetyTest {

    private static final int DEPTH = 10_000;

    private static Mono<Integer> nest(Mono<Integer> innermost, int depth) {
        Mono<Integer> m = innermost;
        for (int i = 0; i < depth; i++) {
            m = ReactorSenders.toMono(ReactorSenders.fromMono(m).then(v -> v + 1));
        }
        return m;
    }

    @Test
    @DisplayName("a value passes through 10,000 nested toMono(fromMono(..).then(..)) levels, synchronously")
    void value_tenThousandLevelsDeep() {
        assertEquals(DEPTH, nest(Mono.just(0), DEPTH).block());
    }

    @Test
    @DisplayName("a value produced on another thread passes through 10,000 nested levels")
    void asyncValue_tenThousandLevelsDeep() {
        Mono<Integer> inner = Mono.delay(Duration.ofMillis(1)).map(x -> 0);
        assertEquals(DEPTH, nest(inner, DEPTH).block(Duration.ofSeconds(30)));
    }

    @Test
    @DisplayName("an error passes through 10,000 nested levels unchanged")
    void error_tenThousandLevelsDeep() {
        IllegalStateException boom = new IllegalStateException("boom");
        Mono<Integer> m = nest(Mono.error(boom), DEPTH);
        assertSame(boom, assertThrows(IllegalStateException.class, m::block));
    }

    @Test
    @DisplayName("a sender run through 10,000 nested fromMono(toMono(..)).then(..) levels completes under syncWait")
    void senderMonoSender_tenThousandLevelsDeep() {
        dev.senders.Sender<Integer> s = Senders.just(0);
        for (int i = 0; i < DEPTH; i++) {
            s = ReactorSenders.fromMono(ReactorSenders.toMono(s)).then(v -> v + 1);
        }
        assertEquals(DEPTH, Senders.syncWait(s));
    }

    @Test
    @DisplayName("a subscription to 10,000 nested levels subscribed on another scheduler completes")
    void subscribedOnAnotherThread_tenThousandLevelsDeep() {
        assertEquals(DEPTH, nest(Mono.just(0), DEPTH).subscribeOn(Schedulers.single()).block(Duration.ofSeconds(30)));
    }

    @Test
    @DisplayName("cancelling a subscription to 10,000 nested levels cancels the innermost Mono")
    void cancel_tenThousandLevelsDeep() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Mono<Integer> m = nest(Mono.<Integer>never().doOnCancel(() -> cancelled.set(true)), DEPTH);
        Disposable d = m.subscribe(v -> fail("no value expected"), e -> fail("no error expected: " + e));
        d.dispose();
        assertTrue(cancelled.get(), "the cancel reached the innermost Mono");
    }
}
