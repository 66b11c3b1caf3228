package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.senders.Sender;
import dev.senders.Senders;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Single/Maybe -> sender -> Single/Maybe nesting at any depth, on the JVM's default thread stack:
 * each level is {@code toSingle(fromSingle(inner).then(f))}, so the round-trip unwrapping cannot
 * collapse it and every level really subscribes through the adapter.
 */
@DisplayName("toSingle/fromSingle: 10,000 nested levels are stack safe")
class NestingStackSafetyTest {

    private static final int DEPTH = 10_000;

    private static Single<Integer> nest(Single<Integer> innermost, int depth) {
        Single<Integer> s = innermost;
        for (int i = 0; i < depth; i++) {
            s = RxSenders.toSingle(RxSenders.fromSingle(s).then(v -> v + 1));
        }
        return s;
    }

    @Test
    @DisplayName("a value passes through 10,000 nested toSingle(fromSingle(..).then(..)) levels, synchronously")
    void value_tenThousandLevelsDeep() {
        assertEquals(DEPTH, nest(Single.just(0), DEPTH).blockingGet());
    }

    @Test
    @DisplayName("a value produced on another thread passes through 10,000 nested levels")
    void asyncValue_tenThousandLevelsDeep() {
        Single<Integer> inner = Single.timer(1, TimeUnit.MILLISECONDS).map(x -> 0);
        assertEquals(DEPTH, nest(inner, DEPTH).timeout(30, TimeUnit.SECONDS).blockingGet());
    }

    @Test
    @DisplayName("an error passes through 10,000 nested levels unchanged")
    void error_tenThousandLevelsDeep() {
        IllegalStateException boom = new IllegalStateException("boom");
        Single<Integer> s = nest(Single.error(boom), DEPTH);
        assertSame(boom, assertThrows(IllegalStateException.class, s::blockingGet));
    }

    @Test
    @DisplayName("a subscription to 10,000 nested levels made on another scheduler completes")
    void subscribedOnAnotherThread_tenThousandLevelsDeep() {
        assertEquals(DEPTH, nest(Single.just(0), DEPTH).subscribeOn(Schedulers.single())
                .timeout(30, TimeUnit.SECONDS).blockingGet());
    }

    @Test
    @DisplayName("a value passes through 10,000 nested toMaybe(fromMaybe(..).then(..)) levels")
    void maybe_tenThousandLevelsDeep() {
        Maybe<Integer> m = Maybe.just(0);
        for (int i = 0; i < DEPTH; i++) {
            m = RxSenders.toMaybe(RxSenders.fromMaybe(m).then(v -> v + 1));
        }
        assertEquals(DEPTH, m.blockingGet());
    }

    @Test
    @DisplayName("a sender run through 10,000 nested fromSingle(toSingle(..)).then(..) levels completes under syncWait")
    void senderSingleSender_tenThousandLevelsDeep() {
        Sender<Integer> s = Senders.just(0);
        for (int i = 0; i < DEPTH; i++) {
            s = RxSenders.fromSingle(RxSenders.toSingle(s)).then(v -> v + 1);
        }
        assertEquals(DEPTH, Senders.syncWait(s));
    }

    @Test
    @DisplayName("disposing a subscription to 10,000 nested levels disposes the innermost Single")
    void dispose_tenThousandLevelsDeep() {
        AtomicBoolean disposed = new AtomicBoolean();
        Single<Integer> s = nest(Single.<Integer>never().doOnDispose(() -> disposed.set(true)), DEPTH);
        Disposable d = s.subscribe(v -> fail("no value expected"), e -> fail("no error expected: " + e));
        d.dispose();
        assertTrue(disposed.get(), "the dispose reached the innermost Single");
    }
}
