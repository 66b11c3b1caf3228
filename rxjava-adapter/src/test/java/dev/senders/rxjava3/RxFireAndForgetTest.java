package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.functions.BiFunction;
import io.reactivex.rxjava3.observers.TestObserver;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import io.reactivex.rxjava3.subjects.MaybeSubject;
import io.reactivex.rxjava3.subjects.PublishSubject;
import io.reactivex.rxjava3.subjects.SingleSubject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link FireAndForget} for RxJava: the five types, the three modes' effects, and plugin chaining. */
class RxFireAndForgetTest {

    /** The defaults, except the adapter's own package: this test's lambdas live there. */
    static final List<String> FRAMEWORK = FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES.stream()
            .filter(p -> !p.equals("dev.senders.rxjava3."))
            .collect(Collectors.toList());

    private final List<Throwable> scopeErrors = new CopyOnWriteArrayList<>();
    private final List<Throwable> pluginErrors = new CopyOnWriteArrayList<>();
    private final CountingScope scope = new CountingScope("app", scopeErrors::add);
    private FireAndForgetTracker tracker;

    private void install(FireAndForgetMode mode) {
        RxJavaPlugins.setErrorHandler(pluginErrors::add);
        tracker = FireAndForget.install(scope, mode, FRAMEWORK, false);
    }

    @AfterEach
    void tearDown() {
        if (tracker != null) {
            tracker.close();
        }
        RxJavaPlugins.reset();
        scope.requestStop();
    }

    /** Subscribes a source that never ends on its own, in every lambda form the type has. */
    private static List<Supplier<Disposable>> neverEnding() {
        List<Supplier<Disposable>> l = new ArrayList<>();
        l.add(() -> Single.never().subscribe());
        l.add(() -> Single.never().subscribe(x -> { }));
        l.add(() -> Single.never().subscribe(x -> { }, e -> { }));
        l.add(() -> Single.never().subscribe((x, e) -> { }));
        l.add(() -> Maybe.never().subscribe());
        l.add(() -> Maybe.never().subscribe(x -> { }));
        l.add(() -> Maybe.never().subscribe(x -> { }, e -> { }));
        l.add(() -> Maybe.never().subscribe(x -> { }, e -> { }, () -> { }));
        l.add(() -> Completable.never().subscribe());
        l.add(() -> Completable.never().subscribe(() -> { }));
        l.add(() -> Completable.never().subscribe(() -> { }, e -> { }));
        l.add(() -> Observable.never().subscribe());
        l.add(() -> Observable.never().subscribe(x -> { }));
        l.add(() -> Observable.never().subscribe(x -> { }, e -> { }));
        l.add(() -> Observable.never().subscribe(x -> { }, e -> { }, () -> { }));
        l.add(() -> Flowable.never().subscribe());
        l.add(() -> Flowable.never().subscribe(x -> { }));
        l.add(() -> Flowable.never().subscribe(x -> { }, e -> { }));
        l.add(() -> Flowable.never().subscribe(x -> { }, e -> { }, () -> { }));
        return l;
    }

    @Test
    void track_everyLambdaFormOfTheFiveTypesIsWorkOfTheScopeUntilDisposed() {
        install(FireAndForgetMode.TRACK);
        List<Disposable> ds = new ArrayList<>();
        for (Supplier<Disposable> s : neverEnding()) {
            ds.add(s.get());
        }
        assertEquals(ds.size(), tracker.foundCount());
        assertEquals(ds.size(), scope.count());
        for (Disposable d : ds) {
            d.dispose();
            assertTrue(d.isDisposed());
        }
        assertEquals(0, scope.count());
        assertEquals(0, tracker.activeCount());
    }

    @Test
    void track_theScopesStopDisposesEveryTypesSourceAndTheCallersDisposable() {
        install(FireAndForgetMode.TRACK);
        AtomicInteger disposed = new AtomicInteger();
        List<Disposable> ds = new ArrayList<>();
        ds.add(Single.never().doOnDispose(disposed::incrementAndGet).subscribe(x -> { }));
        ds.add(Maybe.never().doOnDispose(disposed::incrementAndGet).subscribe(x -> { }));
        ds.add(Completable.never().doOnDispose(disposed::incrementAndGet).subscribe(() -> { }));
        ds.add(Observable.never().doOnDispose(disposed::incrementAndGet).subscribe(x -> { }));
        ds.add(Flowable.never().doOnCancel(disposed::incrementAndGet).subscribe(x -> { }));
        assertEquals(5, scope.count());
        scope.close();
        scope.requestStop();
        assertEquals(5, disposed.get());
        assertEquals(0, scope.count());
        ds.forEach(d -> assertTrue(d.isDisposed()));
    }

    @Test
    void valuesAndCompletionStillReachTheCallbacksAndEndTheWork() {
        install(FireAndForgetMode.TRACK);
        List<Object> seen = new ArrayList<>();
        SingleSubject<String> single = SingleSubject.create();
        MaybeSubject<String> maybe = MaybeSubject.create();
        CompletableSubject completable = CompletableSubject.create();
        PublishSubject<String> observable = PublishSubject.create();
        single.subscribe(v -> seen.add(v));
        maybe.subscribe(seen::add, e -> { }, () -> seen.add("maybe-empty"));
        completable.subscribe(() -> seen.add("completed"));
        observable.subscribe(seen::add, e -> { }, () -> seen.add("observable-done"));
        Flowable.just("f1", "f2").subscribe(seen::add);
        assertEquals(4, scope.count());
        single.onSuccess("s");
        maybe.onComplete();
        completable.onComplete();
        observable.onNext("o");
        observable.onComplete();
        assertEquals(List.of("f1", "f2", "s", "maybe-empty", "completed", "o", "observable-done"), seen);
        assertEquals(0, scope.count());
        assertEquals(5, tracker.foundCount());
    }

    @Test
    void track_errorsWithoutAnErrorCallbackGoToTheScopeOnceNotToRxJavaPlugins() {
        install(FireAndForgetMode.TRACK);
        IllegalStateException boom = new IllegalStateException("boom");
        Single.error(boom).subscribe(x -> { });
        Maybe.error(boom).subscribe();
        Completable.error(boom).subscribe();
        Observable.error(boom).subscribe(x -> { });
        Flowable.error(boom).subscribe();
        assertEquals(5, scopeErrors.size());
        scopeErrors.forEach(e -> assertSame(boom, e));
        assertEquals(List.of(), pluginErrors);
        assertEquals(0, scope.count());
    }

    @Test
    void track_anErrorCallbackStillGetsItsError() {
        install(FireAndForgetMode.TRACK);
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicReference<Throwable> got = new AtomicReference<>();
        Observable.error(boom).subscribe(x -> { }, got::set);
        assertSame(boom, got.get());
        Single.error(boom).subscribe((x, e) -> got.set(new RuntimeException(e)));
        assertSame(boom, got.get().getCause());
        assertEquals(List.of(), scopeErrors);
        assertEquals(List.of(), pluginErrors);
    }

    @Test
    void report_countsAndListsWithoutAssociatingAndErrorsGoWhereTheyWent() {
        install(FireAndForgetMode.REPORT);
        Disposable d = Observable.never().subscribe();
        assertEquals(0, scope.count());
        assertEquals(1, tracker.activeCount());
        assertEquals("Observable.subscribe", tracker.running().get(0).kind());
        assertTrue(tracker.running().get(0).name().orElseThrow().startsWith(RxFireAndForgetTest.class.getName()),
                tracker.running().get(0).name().orElseThrow());
        scope.requestStop();
        assertFalse(d.isDisposed());
        d.dispose();
        assertEquals(0, tracker.activeCount());
        Single.error(new IllegalStateException("boom")).subscribe();
        assertEquals(1, pluginErrors.size());
        assertEquals(List.of(), scopeErrors);
    }

    @Test
    void blockingTestAndOperatorSubscriptionsAreNotFound() {
        install(FireAndForgetMode.TRACK);
        assertEquals(6, Observable.range(1, 3).flatMap(i -> Observable.just(i)).reduce(0, Integer::sum).blockingGet());
        Single.just(1).zipWith(Single.just(2), Integer::sum).blockingGet();
        Flowable.range(1, 3).concatMapSingle(Single::just).blockingLast();
        TestObserver<Integer> t = Maybe.just(1).test();
        t.assertValue(1);
        assertEquals(0, tracker.foundCount());
    }

    @Test
    void track_aSubscriptionAfterTheScopeClosedRunsUntrackedAndIsCounted() {
        install(FireAndForgetMode.TRACK);
        scope.close();
        List<Integer> seen = new ArrayList<>();
        Disposable d = Flowable.just(1).concatWith(Flowable.never()).subscribe(seen::add);
        assertEquals(List.of(1), seen);
        assertEquals(1, tracker.untrackedCount());
        assertEquals(1, tracker.activeCount());
        d.dispose();
        assertEquals(0, tracker.activeCount());
    }

    @Test
    @SuppressWarnings({"rawtypes", "unchecked"})
    void aPluginHookInstalledBeforeIsChainedAndRestoredOnClose() {
        AtomicInteger before = new AtomicInteger();
        BiFunction<Single, io.reactivex.rxjava3.core.SingleObserver, io.reactivex.rxjava3.core.SingleObserver> theirs =
                (s, o) -> {
                    before.incrementAndGet();
                    return o;
                };
        RxJavaPlugins.setOnSingleSubscribe(theirs);
        install(FireAndForgetMode.TRACK);
        Disposable d = Single.never().subscribe(x -> { });
        assertEquals(1, before.get());
        assertEquals(1, tracker.foundCount());
        d.dispose();
        tracker.close();
        assertSame(theirs, RxJavaPlugins.getOnSingleSubscribe());
        assertEquals(null, RxJavaPlugins.getOnObservableSubscribe());
    }

    @Test
    @SuppressWarnings({"rawtypes", "unchecked"})
    void aHookReplacedAfterInstallIsLeftAloneOnCloseAndTheClosedTrackerLetsEverythingThrough() {
        install(FireAndForgetMode.TRACK);
        BiFunction<Observable, io.reactivex.rxjava3.core.Observer, io.reactivex.rxjava3.core.Observer> later = (s, o) -> o;
        RxJavaPlugins.setOnObservableSubscribe(later);
        tracker.close();
        assertSame(later, RxJavaPlugins.getOnObservableSubscribe());
        Disposable d = Observable.never().subscribe();
        assertEquals(0, tracker.foundCount());
        assertEquals(0, scope.count());
        d.dispose();
    }

    @Test
    void oneInstallationPerApplication() {
        install(FireAndForgetMode.REPORT);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FireAndForget.install(new CountingScope(), FireAndForgetMode.TRACK));
        assertTrue(e.getMessage().contains("close it before installing another"), e.getMessage());
    }

    /** A plain {@code subscribe()} made through reflection, as a framework's invoker would. */
    static Disposable subscribeReflectively(Completable source) throws ReflectiveOperationException {
        return (Disposable) Completable.class.getMethod("subscribe").invoke(source);
    }

    @Test
    void aPlainSubscribeCalledThroughReflectionIsFoundAtTheClassThatReflects() throws Exception {
        install(FireAndForgetMode.TRACK);
        Disposable d = subscribeReflectively(Completable.never());
        assertEquals(1, tracker.foundCount(), "the reflection frames are skipped, the reflecting caller decides");
        assertEquals(1, scope.count());
        String site = tracker.running().get(0).name().orElseThrow();
        assertTrue(site.startsWith(RxFireAndForgetTest.class.getName() + ".subscribeReflectively("), site);
        d.dispose();
        assertEquals(0, scope.count());
    }

    /** Stands for framework code (its class name is passed as a framework package prefix). */
    static final class ReflectingFramework {
        static Disposable subscribe(Completable source) throws ReflectiveOperationException {
            return (Disposable) Completable.class.getMethod("subscribe").invoke(source);
        }
    }

    @Test
    void aPlainSubscribeAFrameworkMakesThroughReflectionIsNotFound() throws Exception {
        List<String> framework = new ArrayList<>(FRAMEWORK);
        framework.add(ReflectingFramework.class.getName());
        RxJavaPlugins.setErrorHandler(pluginErrors::add);
        tracker = FireAndForget.install(scope, FireAndForgetMode.TRACK, framework, false);
        Disposable d = ReflectingFramework.subscribe(Completable.never());
        assertEquals(0, tracker.foundCount(), "the first frame past the reflection frames is the framework's");
        assertEquals(0, scope.count());
        d.dispose();
    }
}
