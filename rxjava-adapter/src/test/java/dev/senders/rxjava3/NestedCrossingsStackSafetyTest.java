package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.DefaultStack;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.observers.TestObserver;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import io.reactivex.rxjava3.subjects.MaybeSubject;
import io.reactivex.rxjava3.subjects.SingleSubject;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stack safety of nested crossings that do not collapse: each level is
 * {@code toSingle(fromSingle(inner).then(f))} (or the {@code Maybe}/{@code Completable} kin) with an
 * RxJava operator after it ({@code map}, {@code flatMap(Single::just)}, {@code doOnSuccess},
 * {@code filter}...), so every level is its own fused observer subscribing to the operator below
 * it. 10,000 levels run to their result on a thread with the JVM's default stack size (surefire's
 * main thread may have a bigger one): the subscribe, signal and dispose paths each go through the
 * per-thread trampoline often enough. A source completing on another thread takes the signal path
 * on that thread's stack.
 */
@DisplayName("Nested toSingle/toMaybe/toCompletable crossings with an operator between each level: stack safe at 10,000 levels")
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a hang, not a measurement
class NestedCrossingsStackSafetyTest {

    private static final int DEPTH = 10_000;

    /** The RxJava operator put after level {@code i}: map, flatMap, doOnSuccess, hide in turn. */
    private static Single<Integer> operator(Single<Integer> s, int i) {
        switch (i % 4) {
            case 0: return s.map(v -> v);
            case 1: return s.flatMap(Single::just);
            case 2: return s.doOnSuccess(v -> { });
            default: return s.hide();
        }
    }

    private static Single<Integer> nest(Single<Integer> innermost) {
        return nest(innermost, s -> s);
    }

    /** {@code DEPTH} levels of {@code toSingle(fromSingle(inner).then(v + 1))} and an operator; {@code more} on every other level. */
    private static Single<Integer> nest(Single<Integer> innermost, UnaryOperator<Sender<Integer>> more) {
        Single<Integer> s = innermost;
        for (int i = 0; i < DEPTH; i++) {
            Sender<Integer> level = RxSenders.fromSingle(s).then(v -> v + 1);
            s = operator(RxSenders.toSingle(i % 2 == 0 ? level : more.apply(level)), i);
        }
        return s;
    }

    /** {@code DEPTH} levels of {@code toMaybe(fromMaybe(inner).then(v + 1))} with filter, flatMap, map, doOnSuccess in turn. */
    private static Maybe<Integer> nestMaybe(Maybe<Integer> innermost) {
        Maybe<Integer> m = innermost;
        for (int i = 0; i < DEPTH; i++) {
            Maybe<Integer> crossed = RxSenders.toMaybe(RxSenders.fromMaybe(m).then(v -> v == null ? null : v + 1));
            switch (i % 4) {
                case 0: m = crossed.filter(v -> true); break;
                case 1: m = crossed.flatMap(Maybe::just); break;
                case 2: m = crossed.map(v -> v); break;
                default: m = crossed.doOnSuccess(v -> { }); break;
            }
        }
        return m;
    }

    /** {@code DEPTH} levels of {@code toCompletable(fromCompletable(inner).then(..))} with doOnComplete or hide in turn. */
    private static Completable nestCompletable(Completable innermost) {
        Completable c = innermost;
        for (int i = 0; i < DEPTH; i++) {
            Completable crossed = RxSenders.toCompletable(RxSenders.fromCompletable(c).then(v -> v));
            c = i % 2 == 0 ? crossed.doOnComplete(() -> { }) : crossed.hide();
        }
        return c;
    }

    /** Runs {@code body} on a new thread with the JVM's default stack size and returns its result. */
    private static <T> T onDefaultStack(Callable<T> body) throws Exception {
        return DefaultStack.call(body);
    }

    @Test
    @DisplayName("a value passes through 10,000 Single levels with an operator between each, synchronously")
    void singleValue_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> nest(Single.just(0)).blockingGet()));
    }

    @Test
    @DisplayName("a source behind an operator (not a plain just) passes through 10,000 Single levels")
    void singleValueBehindOperator_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> nest(Single.just(0).map(v -> v)).blockingGet()));
    }

    @Test
    @DisplayName("an error passes through 10,000 Single levels unchanged")
    void singleError_tenThousandLevels() throws Exception {
        IllegalStateException boom = new IllegalStateException("boom");
        TestObserver<Integer> to = onDefaultStack(() -> nest(Single.<Integer>error(boom)).test());
        to.assertError(boom);
    }

    @Test
    @DisplayName("a value produced on another thread passes through 10,000 Single levels on that thread's stack")
    void singleAsyncValue_tenThousandLevels() throws Exception {
        SingleSubject<Integer> source = SingleSubject.create();
        TestObserver<Integer> to = onDefaultStack(() -> nest(source).test());
        onDefaultStack(() -> {
            source.onSuccess(0);
            return null;
        });
        to.await(1, TimeUnit.MINUTES);
        to.assertValue(DEPTH);
    }

    @Test
    @DisplayName("an error produced on another thread passes through 10,000 Single levels on that thread's stack")
    void singleAsyncError_tenThousandLevels() throws Exception {
        SingleSubject<Integer> source = SingleSubject.create();
        IllegalStateException boom = new IllegalStateException("boom");
        TestObserver<Integer> to = onDefaultStack(() -> nest(source).test());
        onDefaultStack(() -> {
            source.onError(boom);
            return null;
        });
        to.await(1, TimeUnit.MINUTES);
        to.assertError(boom);
    }

    @Test
    @DisplayName("disposing a subscription to 10,000 Single levels disposes the innermost Single")
    void singleDispose_tenThousandLevels() throws Exception {
        AtomicBoolean disposed = new AtomicBoolean();
        TestObserver<Integer> to = onDefaultStack(() -> {
            TestObserver<Integer> t = nest(Single.<Integer>never().doOnDispose(() -> disposed.set(true))).test();
            t.dispose();
            return t;
        });
        assertTrue(disposed.get(), "the dispose reached the innermost Single");
        to.assertNoValues().assertNoErrors().assertNotComplete();
    }

    @Test
    @DisplayName("a dispose made on another thread while the source is pending reaches the innermost Single")
    void singleDisposeFromAnotherThread_tenThousandLevels() throws Exception {
        CountDownLatch disposed = new CountDownLatch(1);
        SingleSubject<Integer> source = SingleSubject.create();
        TestObserver<Integer> to = onDefaultStack(() -> nest(source.doOnDispose(disposed::countDown)).test());
        onDefaultStack(() -> {
            to.dispose();
            return null;
        });
        assertTrue(disposed.await(1, TimeUnit.MINUTES), "the dispose reached the innermost Single");
        assertTrue(!source.hasObservers(), "the innermost Single has no observer left");
    }

    @Test
    @DisplayName("fused and unfused crossings alternating (uponStopped keeps the adapter) are stack safe at 10,000 Single levels")
    void singleAlternatingFusedAndUnfused_tenThousandLevels() throws Exception {
        UnaryOperator<Sender<Integer>> unfused = s -> s.uponStopped(() -> -1);
        assertEquals(DEPTH, onDefaultStack(() -> nest(Single.just(0), unfused).blockingGet()));
        SingleSubject<Integer> source = SingleSubject.create();
        TestObserver<Integer> to = onDefaultStack(() -> nest(source, unfused).test());
        onDefaultStack(() -> {
            source.onSuccess(0);
            return null;
        });
        to.await(1, TimeUnit.MINUTES);
        to.assertValue(DEPTH);
        AtomicBoolean disposed = new AtomicBoolean();
        onDefaultStack(() -> {
            nest(Single.<Integer>never().doOnDispose(() -> disposed.set(true)), unfused).test().dispose();
            return null;
        });
        assertTrue(disposed.get(), "the dispose reached the innermost Single");
    }

    @Test
    @DisplayName("a value passes through 10,000 Maybe levels with an operator between each")
    void maybeValue_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> nestMaybe(Maybe.just(0)).blockingGet()));
    }

    @Test
    @DisplayName("an empty Maybe completes 10,000 Maybe levels empty")
    void maybeEmpty_tenThousandLevels() throws Exception {
        TestObserver<Integer> to = onDefaultStack(() -> nestMaybe(Maybe.<Integer>empty()).test());
        to.assertComplete().assertNoValues();
        MaybeSubject<Integer> source = MaybeSubject.create();
        TestObserver<Integer> async = onDefaultStack(() -> nestMaybe(source).test());
        onDefaultStack(() -> {
            source.onComplete();
            return null;
        });
        async.await(1, TimeUnit.MINUTES);
        async.assertComplete().assertNoValues();
    }

    @Test
    @DisplayName("disposing a subscription to 10,000 Maybe levels disposes the innermost Maybe")
    void maybeDispose_tenThousandLevels() throws Exception {
        AtomicBoolean disposed = new AtomicBoolean();
        onDefaultStack(() -> {
            nestMaybe(Maybe.<Integer>never().doOnDispose(() -> disposed.set(true))).test().dispose();
            return null;
        });
        assertTrue(disposed.get(), "the dispose reached the innermost Maybe");
    }

    @Test
    @DisplayName("a completion passes through 10,000 Completable levels, synchronously and from another thread")
    void completable_tenThousandLevels() throws Exception {
        TestObserver<Void> to = onDefaultStack(() -> nestCompletable(Completable.complete()).test());
        to.assertComplete();
        CompletableSubject source = CompletableSubject.create();
        TestObserver<Void> async = onDefaultStack(() -> nestCompletable(source).test());
        onDefaultStack(() -> {
            source.onComplete();
            return null;
        });
        async.await(1, TimeUnit.MINUTES);
        async.assertComplete();
        IllegalStateException boom = new IllegalStateException("boom");
        onDefaultStack(() -> nestCompletable(Completable.error(boom)).test()).assertError(boom);
    }

    @Test
    @DisplayName("an error made by an operator under the innermost level (an empty Maybe's toSingle) passes through 10,000 Single levels")
    void singleOfEmptyMaybe_tenThousandLevels() throws Exception {
        TestObserver<Integer> to = onDefaultStack(() -> nest(Maybe.<Integer>empty().toSingle()).test());
        to.assertError(NoSuchElementException.class);
    }

    @Test
    @DisplayName("Flowable crossings (toFlowable(fromFlowable(..).then(..)) with a Flowable operator between) are stack safe at 10,000 levels")
    void flowable_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> {
            Flowable<Integer> f = Flowable.just(0);
            for (int i = 0; i < DEPTH; i++) {
                f = RxSenders.toFlowable(RxSenders.fromFlowable(f).then(v -> v + 1)).map(v -> v);
            }
            return f.blockingLast();
        }));
    }

    @Test
    @DisplayName("a sender run through 10,000 levels of fromSingle(toSingle(..).map(..)).then(..) completes under syncWait")
    void senderThroughSingles_tenThousandLevels() throws Exception {
        assertEquals(DEPTH, onDefaultStack(() -> {
            Sender<Integer> s = Senders.just(0);
            for (int i = 0; i < DEPTH; i++) {
                s = RxSenders.fromSingle(RxSenders.toSingle(s).map(v -> v)).then(v -> v + 1);
            }
            return Senders.syncWait(s);
        }));
    }

    @Test
    @DisplayName("the Disposable a deep subscription hands out reports disposal at once")
    void disposableReportsDisposal() throws Exception {
        Disposable d = onDefaultStack(() -> nest(Single.<Integer>never()).subscribe(v -> { }, e -> { }));
        d.dispose();
        assertTrue(d.isDisposed());
    }
}
