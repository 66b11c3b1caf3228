package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code toSingle/toMaybe/toCompletable} of {@code fromSingle/fromMaybe/fromCompletable} followed by
 * stages: one observer per crossing (decision R4), with exactly the signals the full adapter pair
 * gives. The full pair is reached through the {@code Flowable} view of the same source, which the
 * conversions do not fuse.
 */
@DisplayName("toSingle/toMaybe/toCompletable of fromSingle/fromMaybe/fromCompletable then ..: one observer, the round trip's signals")
class StagedRoundTripTest {

    private static final IllegalStateException BOOM = new IllegalStateException("boom");

    /** A source sender, fused and not: {fused, unfused}. */
    private static List<List<Sender<Integer>>> sources() {
        List<List<Sender<Integer>>> s = new ArrayList<>();
        for (Single<Integer> single : List.of(Single.just(1), Single.<Integer>error(BOOM))) {
            s.add(List.of(RxSenders.fromSingle(single), RxSenders.fromFlowable(single.toFlowable())));
        }
        for (Maybe<Integer> maybe : List.of(Maybe.just(2), Maybe.<Integer>empty(), Maybe.<Integer>error(BOOM))) {
            s.add(List.of(RxSenders.fromMaybe(maybe), RxSenders.fromFlowable(maybe.toFlowable())));
        }
        for (Completable c : List.of(Completable.complete(), Completable.error(BOOM))) {
            @SuppressWarnings("unchecked")
            Sender<Integer> fused = (Sender<Integer>) (Sender<?>) RxSenders.fromCompletable(c);
            s.add(List.of(fused, RxSenders.fromFlowable(c.<Integer>toFlowable())));
        }
        return s;
    }

    private static List<Function<Sender<Integer>, Sender<Integer>>> chains() {
        List<Function<Sender<Integer>, Sender<Integer>>> c = new ArrayList<>();
        c.add(s -> s.then(v -> v == null ? -1 : v + 1));
        c.add(s -> s.then(v -> null));
        c.add(s -> s.then(v -> { throw new IllegalArgumentException("stage " + v); }));
        c.add(s -> s.uponError(e -> 42));
        c.add(s -> s.then(v -> v == null ? 0 : v * 2).uponError(e -> -2).then(v -> v + 100));
        return c;
    }

    private static String outcome(Single<Integer> s) {
        try {
            return "value " + s.blockingGet();
        } catch (RuntimeException e) {
            return "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static String outcome(Maybe<Integer> m) {
        try {
            Integer v = m.blockingGet();
            return v == null ? "empty" : "value " + v;
        } catch (RuntimeException e) {
            return "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static String outcome(Completable c) {
        try {
            c.blockingAwait();
            return "complete";
        } catch (RuntimeException e) {
            return "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    @Test
    @DisplayName("every source kind and outcome, chain and consumer kind gives what the unfused adapters give")
    void fusedAndUnfusedAgree() {
        for (List<Sender<Integer>> pair : sources()) {
            for (Function<Sender<Integer>, Sender<Integer>> chain : chains()) {
                Sender<Integer> fused = chain.apply(pair.get(0));
                Sender<Integer> unfused = chain.apply(pair.get(1));
                String where = pair.get(0).toString();
                assertTrue(RxSenders.toSingle(fused) instanceof RxStaged.StagedSingle, where);
                assertFalse(RxSenders.toSingle(unfused) instanceof RxStaged.StagedSingle, where);
                assertEquals(outcome(RxSenders.toSingle(unfused)), outcome(RxSenders.toSingle(fused)), where);
                assertEquals(outcome(RxSenders.toMaybe(unfused)), outcome(RxSenders.toMaybe(fused)), where);
                assertEquals(outcome(RxSenders.toCompletable(unfused)), outcome(RxSenders.toCompletable(fused)), where);
            }
        }
    }

    @Test
    @DisplayName("nested crossings are one observer, and keep each consumer's rule for null in between")
    void nestedCrossings() {
        Single<Integer> s = Single.just(1);
        for (int i = 0; i < 3; i++) {
            s = RxSenders.toSingle(RxSenders.fromSingle(s).then(v -> v * 10));
        }
        assertEquals(1000, s.blockingGet());
        // a Single in the middle fails on null; the outer stages see its NoSuchElementException
        Single<Integer> nullInMiddle = RxSenders.toSingle(RxSenders.fromSingle(
                RxSenders.toSingle(RxSenders.fromSingle(Single.just(1)).then(v -> (Integer) null)))
                .uponError(e -> e instanceof java.util.NoSuchElementException ? 5 : 6));
        assertEquals(5, nullInMiddle.blockingGet());
        // a Maybe in the middle completes empty; the outer stages see null
        Maybe<Integer> emptyInMiddle = RxSenders.toMaybe(RxSenders.fromMaybe(
                RxSenders.toMaybe(RxSenders.fromMaybe(Maybe.just(1)).then(v -> (Integer) null)))
                .then(v -> v == null ? 7 : 8));
        assertEquals(7, emptyInMiddle.blockingGet());
        // a Completable in the middle forgets the value
        Maybe<Integer> afterCompletable = RxSenders.toMaybe(RxSenders.fromCompletable(
                RxSenders.toCompletable(RxSenders.fromSingle(Single.just(1)).then(v -> v)))
                .then(v -> v == null ? 9 : 10));
        assertEquals(9, afterCompletable.blockingGet());
    }

    @Test
    @DisplayName("a crossing subscribes the source once; dispose reaches it")
    void subscribesOnceAndDisposeReachesTheSource() {
        AtomicInteger subscriptions = new AtomicInteger();
        Single<Integer> counted = Single.just(1).doOnSubscribe(d -> subscriptions.incrementAndGet());
        assertEquals(2, RxSenders.toSingle(RxSenders.fromSingle(counted).then(v -> v + 1)).blockingGet());
        assertEquals(1, subscriptions.get());

        AtomicBoolean disposed = new AtomicBoolean();
        Single<Integer> never = Single.<Integer>never().doOnDispose(() -> disposed.set(true));
        Disposable d = RxSenders.toSingle(RxSenders.fromSingle(never).then(v -> v)).subscribe(v -> { }, e -> { });
        d.dispose();
        assertTrue(disposed.get());
    }

    @Test
    @DisplayName("fromMaybeOptional and chains with uponStopped keep the full adapter")
    void notFused() {
        assertFalse(RxSenders.toMaybe(RxSenders.fromMaybeOptional(Maybe.just(1)).then(o -> o.orElse(0)))
                instanceof RxStaged.StagedMaybe);
        assertFalse(RxSenders.toSingle(RxSenders.fromSingle(Single.just(1)).uponStopped(() -> 0))
                instanceof RxStaged.StagedSingle);
    }
}
