package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.OutstandingWork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.context.Context;

/** {@link FireAndForget}: which Reactor subscriptions are found, and what REPORT and TRACK do with them. */
class ReactorFireAndForgetTest {

    /** The defaults, except the adapter's own package: this test's lambdas live there. */
    static final List<String> FRAMEWORK = FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES.stream()
            .filter(p -> !p.equals("dev.senders.reactor."))
            .collect(Collectors.toList());

    private final List<Throwable> scopeErrors = new CopyOnWriteArrayList<>();
    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();
    private final CountingScope scope = new CountingScope("app", scopeErrors::add);
    private FireAndForgetTracker tracker;

    private FireAndForgetTracker install(FireAndForgetMode mode, List<String> framework) {
        Hooks.onErrorDropped(dropped::add);
        tracker = FireAndForget.install(scope, mode, framework, false);
        return tracker;
    }

    @AfterEach
    void tearDown() {
        if (tracker != null) {
            tracker.close();
        }
        Hooks.resetOnErrorDropped();
        Hooks.resetOnLastOperator();
        scope.requestStop();
    }

    @Test
    void track_aPlainMonoSubscribeIsWorkOfTheScopeUntilItEnds() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        Sinks.One<String> sink = Sinks.one();
        Disposable d = sink.asMono().subscribe();
        assertEquals(1, scope.count());
        assertEquals(1, tracker.activeCount());
        sink.tryEmitValue("done");
        assertEquals(0, scope.count());
        assertEquals(0, tracker.activeCount());
        assertEquals(1, tracker.foundCount());
        assertTrue(d.isDisposed());
        ReactorScopesTest.closeAndJoin(scope);
    }

    @Test
    void track_theScopesStopCancelsTheSourceAndTheCallersDisposableReportsDisposed() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        AtomicInteger cancelled = new AtomicInteger();
        Disposable d = Flux.never().doOnCancel(cancelled::incrementAndGet).subscribe(x -> { });
        assertEquals(1, scope.count());
        scope.close();
        scope.requestStop();
        assertEquals(1, cancelled.get());
        assertEquals(0, scope.count());
        assertTrue(d.isDisposed());
    }

    @Test
    void track_disposingTheCallersDisposableReleasesAtOnce() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        AtomicInteger cancelled = new AtomicInteger();
        Disposable d = Mono.never().doOnCancel(cancelled::incrementAndGet).subscribe(x -> { }, e -> { });
        assertEquals(1, scope.count());
        d.dispose();
        assertEquals(1, cancelled.get());
        assertEquals(0, scope.count());
        assertEquals(0, tracker.activeCount());
        assertTrue(d.isDisposed());
    }

    @Test
    @SuppressWarnings("deprecation") // the subscription-consumer overload is one of the lambda forms
    void everyLambdaOverloadOfMonoAndFluxIsFound() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        Consumer<Object> c = x -> { };
        Consumer<Throwable> e = x -> { };
        Runnable r = () -> { };
        List<Disposable> ds = new ArrayList<>();
        ds.add(Mono.never().subscribe());
        ds.add(Mono.never().subscribe(c));
        ds.add(Mono.never().subscribe(c, e));
        ds.add(Mono.never().subscribe(c, e, r));
        ds.add(Mono.never().subscribe(c, e, r, Context.empty()));
        ds.add(Flux.never().subscribe());
        ds.add(Flux.never().subscribe(c));
        ds.add(Flux.never().subscribe(c, e));
        ds.add(Flux.never().subscribe(c, e, r));
        ds.add(Flux.never().subscribe(c, e, r, Context.empty()));
        ds.add(Flux.never().subscribe(null, null, null, s -> s.request(1)));
        assertEquals(ds.size(), tracker.foundCount());
        assertEquals(ds.size(), scope.count());
        ds.forEach(Disposable::dispose);
        assertEquals(0, scope.count());
    }

    @Test
    void blockOperatorInnerSubscriptionsAndBaseSubscribersAreNotFound() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        assertEquals(6, Flux.range(1, 3).flatMap(i -> Mono.just(i).map(x -> x)).concatMap(Mono::just)
                .reduce(0, Integer::sum).block());
        Mono.just(1).zipWith(Mono.just(2)).block(Duration.ofSeconds(5));
        Flux.range(1, 3).collectList().subscribeWith(new reactor.core.publisher.BaseSubscriber<List<Integer>>() { });
        assertEquals(0, tracker.foundCount());
        assertEquals(0, scope.count());
    }

    @Test
    void theElementsAndCompletionStillReachTheCallbacks() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        List<Integer> seen = new ArrayList<>();
        AtomicInteger completed = new AtomicInteger();
        Flux.range(1, 3).subscribe(seen::add, e -> { }, completed::incrementAndGet);
        assertEquals(List.of(1, 2, 3), seen);
        assertEquals(1, completed.get());
        assertEquals(1, tracker.foundCount());
        assertEquals(0, scope.count());
    }

    @Test
    void track_anErrorWithNoErrorCallbackGoesToTheScopesHandlerOnceAndIsNotDropped() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        IllegalStateException boom = new IllegalStateException("boom");
        Disposable d = Mono.error(boom).subscribe(x -> { });
        assertEquals(1, scopeErrors.size());
        assertSame(boom, scopeErrors.get(0));
        assertEquals(List.of(), dropped);
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
    }

    @Test
    void track_anErrorCallbackStillGetsItsErrorAndTheScopeDoesNot() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicReference<Throwable> got = new AtomicReference<>();
        Flux.error(boom).subscribe(x -> { }, got::set);
        assertSame(boom, got.get());
        assertEquals(List.of(), scopeErrors);
        assertEquals(List.of(), dropped);
        assertEquals(0, scope.count());
    }

    @Test
    void report_anErrorWithNoErrorCallbackIsDroppedAsWithoutTheHook() {
        install(FireAndForgetMode.REPORT, FRAMEWORK);
        Mono.error(new IllegalStateException("boom")).subscribe();
        assertEquals(1, dropped.size());
        assertEquals(List.of(), scopeErrors);
    }

    @Test
    void track_aSubscriptionAfterTheScopeClosedRunsUntrackedAndIsCounted() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        scope.close();
        List<Integer> seen = new ArrayList<>();
        Sinks.Many<Integer> sink = Sinks.many().multicast().directBestEffort();
        Disposable d = sink.asFlux().subscribe(seen::add);
        sink.tryEmitNext(7);
        assertEquals(List.of(7), seen);
        assertEquals(1, tracker.untrackedCount());
        assertEquals(1, tracker.activeCount());
        assertEquals(0, scope.count());
        assertTrue(tracker.running().get(0).kind().contains("untracked"));
        d.dispose();
        assertEquals(0, tracker.activeCount());
    }

    @Test
    void report_countsAndListsWithoutAssociating() {
        install(FireAndForgetMode.REPORT, FRAMEWORK);
        Disposable d = Flux.never().subscribe();
        assertEquals(0, scope.count());
        assertEquals(1, tracker.activeCount());
        OutstandingWork w = tracker.running().get(0);
        assertEquals("Flux.subscribe", w.kind());
        assertTrue(w.name().orElseThrow().startsWith(ReactorFireAndForgetTest.class.getName()
                + ".report_countsAndListsWithoutAssociating(ReactorFireAndForgetTest.java:"), w.name().orElseThrow());
        assertTrue(tracker.report().contains("1 still running"), tracker.report());
        scope.requestStop(); // REPORT: the scope does not own it
        assertFalse(d.isDisposed());
        d.dispose();
        assertEquals(0, tracker.activeCount());
    }

    @Test
    void aCallbackWithoutSiteCaptureIsLabelledWithTheClassThatWroteIt() {
        install(FireAndForgetMode.REPORT, FRAMEWORK);
        Disposable d = Mono.never().subscribe(x -> { });
        assertEquals(ReactorFireAndForgetTest.class.getName(), tracker.running().get(0).name().orElseThrow());
        d.dispose();
    }

    @Test
    void subscriptionsFromFrameworkPackagesAreNeverFound() {
        List<String> framework = new ArrayList<>(FRAMEWORK);
        framework.add(FrameworkCode.class.getName());
        install(FireAndForgetMode.TRACK, framework);
        Disposable withCallback = FrameworkCode.subscribeWithCallback(Flux.never());
        Disposable plain = FrameworkCode.subscribePlain(Flux.never());
        assertEquals(0, tracker.foundCount());
        assertEquals(0, scope.count());
        withCallback.dispose();
        plain.dispose();
    }

    @Test
    void otherLastOperatorHooksAndTheSubscribersContextStillApply() {
        AtomicInteger otherHook = new AtomicInteger();
        Hooks.onLastOperator("other", p -> {
            otherHook.incrementAndGet();
            return p;
        });
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        AtomicReference<String> seen = new AtomicReference<>();
        Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("user")))
                .subscribe(seen::set, e -> { }, () -> { }, Context.of("user", "ada"));
        assertEquals("ada", seen.get());
        assertTrue(otherHook.get() > 0);
        assertEquals(1, tracker.foundCount());
        tracker.close();
        Hooks.onLastOperator("probe", p -> p); // the other hook survived our removal
        int before = otherHook.get();
        Mono.just(1).subscribe();
        assertTrue(otherHook.get() > before);
        assertEquals(1, tracker.foundCount()); // closed: nothing found any more
    }

    @Test
    void oneInstallationPerApplication() {
        install(FireAndForgetMode.REPORT, FRAMEWORK);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> FireAndForget.install(new CountingScope(), FireAndForgetMode.TRACK));
        assertTrue(e.getMessage().contains("close it before installing another"), e.getMessage());
        tracker.close();
        FireAndForget.install(scope, FireAndForgetMode.TRACK).close();
    }

    @Test
    void modeOffInstallsNothingAndSaysSo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FireAndForget.install(scope, FireAndForgetMode.OFF));
        assertTrue(e.getMessage().contains("installs nothing"), e.getMessage());
    }

    /** Stands for framework code (its class name is passed as a framework package prefix). */
    static final class FrameworkCode {
        static Disposable subscribeWithCallback(Flux<?> f) {
            return f.subscribe(x -> { });
        }

        static Disposable subscribePlain(Flux<?> f) {
            return f.subscribe();
        }
    }

    @Test
    void track_theScopesStopEndsTheRunningOnesAndTheReportCountsThemBySite() {
        install(FireAndForgetMode.TRACK, FRAMEWORK);
        Consumer<Object> ignore = v -> { };
        Disposable a = Mono.never().subscribe(ignore);
        Disposable b = Flux.never().subscribe(ignore);
        Mono.just("done").subscribe(ignore); // ends before the stop: not counted
        assertEquals(2, tracker.activeCount());
        assertEquals(2, tracker.running().size());

        scope.requestStop();

        assertTrue(a.isDisposed() && b.isDisposed(), "the stop disposed the callers' handles");
        assertEquals(0, tracker.activeCount());
        assertEquals(0, scope.count());
        assertEquals(2, tracker.endedAfterStopCount());
        assertTrue(tracker.report().contains("2 ended after the scope's stop request"), tracker.report());
        assertTrue(tracker.report().contains("2 x " + ReactorFireAndForgetTest.class.getName()), tracker.report());
    }
}
