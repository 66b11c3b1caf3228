package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingWork;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import dev.senders.testkit.NamingToken;
import dev.senders.testkit.StubbornBody;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * With {@link ScheduledTaskTracking} installed, work spawned with {@link ReactorScopes#spawn} stays
 * associated with its scope while the tasks it scheduled on Reactor's schedulers run: a scope is
 * never reported joined while the code of its work still runs.
 */
class ScheduledTaskTrackingTest {

    private static final Duration SHORT = Duration.ofMillis(50);
    private static final Duration LONG = Duration.ofSeconds(30);

    private Disposable tracking;
    private final StubbornBody body = new StubbornBody();

    @BeforeEach
    void install() {
        tracking = ScheduledTaskTracking.install();
    }

    @AfterEach
    void uninstall() {
        body.release();
        tracking.dispose();
    }

    private static Mono<Void> onBoundedElastic(Runnable r) {
        return Mono.fromRunnable(r).subscribeOn(Schedulers.boundedElastic()).then();
    }

    private static void awaitJoined(CountingScope scope) {
        ReactorSenders.toMono(scope.join()).block(LONG);
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    void workWhoseBodyIgnoresCancellationIsReportedAbandonedAndStillRunningByName_untilItsBodyReturns()
            throws Exception {
        CountingScope scope = new CountingScope("reactor-stubborn");
        ReactorScopes.spawn(onBoundedElastic(body), new NamingToken(scope.getToken(), "stubborn-mono"));
        body.awaitStarted();

        ShutdownReport report = Scopes.joinOrStop(scope, SHORT, SHORT);

        assertTrue(body.running(), "the body still runs");
        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome(), report::toString);
        assertEquals(1, report.remaining());
        List<OutstandingWork> still = report.stillRunning();
        assertEquals(1, still.size());
        assertEquals("stubborn-mono", still.get(0).name().orElseThrow());
        assertTrue(report.toString().contains("stubborn-mono"), report::toString);
        assertEquals(1, scope.count());

        body.release();
        awaitJoined(scope);
        assertTrue(body.ended(), "joined only once the body returned");
    }

    @Test
    void unnamedWorkOnTheDirectPathKeepsTheScopeOpenWhileItsBodyRuns() throws Exception {
        CountingScope scope = new CountingScope();
        Disposable work = ReactorScopes.spawn(onBoundedElastic(body), scope.getToken());
        body.awaitStarted();

        work.dispose();

        assertTrue(work.isDisposed());
        assertEquals(1, scope.count(), "disposed, but its body still runs");
        ShutdownReport report = Scopes.joinOrStop(scope, SHORT, SHORT);
        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome(), report::toString);
        body.release();
        awaitJoined(scope);
        assertTrue(body.ended());
    }

    @Test
    void shutdownWaitsWithinItsStopTimeoutForABodyThatEndsAfterTheStopRequest() throws Exception {
        CountingScope scope = new CountingScope();
        // the body ignores the interrupt; the cancellation's hook lets it end, after the cancel
        ReactorScopes.spawn(onBoundedElastic(body).doOnCancel(body::release), scope.getToken());
        body.awaitStarted();

        ShutdownReport report = Scopes.joinOrStop(scope, SHORT, LONG);

        assertEquals(ShutdownReport.Outcome.STOPPED, report.outcome(), report::toString);
        assertTrue(body.ended(), "the report came after the body returned");
        assertEquals(0, scope.count());
    }

    @Test
    void aTaskScheduledFromInsideAnAttributedTaskIsAttributedToo() throws Exception {
        CountingScope scope = new CountingScope();
        // the work completes right after its subscribeOn task scheduled the body elsewhere and saw
        // it start (a task that starts only after the work was released runs untracked)
        ReactorScopes.spawn(Mono.fromRunnable(() -> {
                    Schedulers.boundedElastic().schedule(body);
                    try {
                        body.awaitStarted();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).subscribeOn(Schedulers.parallel()), scope.getToken());
        body.awaitStarted();

        ShutdownReport report = Scopes.joinOrStop(scope, SHORT, SHORT);

        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome(), report::toString);
        assertTrue(body.running());
        body.release();
        awaitJoined(scope);
        assertTrue(body.ended());
    }

    @Test
    void anErrorOfWorkWhoseTaskStillRunsIsHandledOnce_andTheScopeJoinsOnlyAfterTheTask() throws Exception {
        IllegalStateException boom = new IllegalStateException("boom");
        for (boolean named : new boolean[] {false, true}) {
            List<Throwable> handled = new CopyOnWriteArrayList<>();
            CountingScope scope = new CountingScope(handled::add);
            StubbornBody b = new StubbornBody();
            Mono<Void> failsWhileTheBodyRuns = Mono.when(onBoundedElastic(b), Mono.defer(() -> {
                try {
                    b.awaitStarted();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                return Mono.error(boom); // cancels the body's subscription, which the body ignores
            }));

            ReactorScopes.spawn(failsWhileTheBodyRuns,
                    named ? new NamingToken(scope.getToken(), "fails") : scope.getToken());

            assertEquals(1, scope.count(), "the work failed, its body still runs");
            // the direct path routes the error at once; the general path completes its receiver
            // with it when the release comes
            assertEquals(named ? List.of() : List.of(boom), handled);
            b.release();
            scope.close();
            awaitJoined(scope);
            assertTrue(b.ended());
            assertEquals(List.of(boom), handled, "handled once");
            assertEquals(1, scope.errorCount());
        }
    }

    @Test
    void aTaskDisposedBeforeItStartsHoldsNothing() {
        CountingScope scope = new CountingScope();
        Disposable work = ReactorScopes.spawn(Mono.delay(Duration.ofHours(1)), scope.getToken());
        assertEquals(1, scope.count());

        work.dispose();

        assertEquals(0, scope.count(), "the delay's task never started");
        scope.close();
        awaitJoined(scope);
    }

    @Test
    void aTaskThatStartsAfterTheWorkReleasedItsAssociationRunsUntracked() throws Exception {
        Scheduler single = Schedulers.newSingle("tracking-test");
        try {
            StubbornBody blocker = new StubbornBody();
            single.schedule(blocker); // not spawned work: occupies the scheduler's one thread
            blocker.awaitStarted();
            CountDownLatch ran = new CountDownLatch(1);
            CountingScope scope = new CountingScope();

            ReactorScopes.spawn(Mono.fromRunnable(() -> single.schedule(ran::countDown)), scope.getToken());

            assertEquals(0, scope.count(), "the work completed; its task has not started");
            scope.close();
            awaitJoined(scope);
            blocker.release();
            assertTrue(ran.await(30, TimeUnit.SECONDS), "the task still runs, untracked");
        } finally {
            single.dispose();
        }
    }

    @Test
    void otherScheduleHooksKeepWorking_andRemovalLeavesThem() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        Schedulers.onScheduleHook("test-other-hook", r -> {
            seen.incrementAndGet();
            return r;
        });
        try {
            CountingScope scope = new CountingScope();
            ReactorScopes.spawn(onBoundedElastic(body), scope.getToken());
            body.awaitStarted();
            assertEquals(1, seen.get(), "the other hook saw the task");
            scope.requestStop();
            assertEquals(1, scope.count(), "ours still counts it");
            body.release();
            scope.close();
            awaitJoined(scope);

            tracking.dispose();
            assertFalse(ScheduledTaskTracking.isInstalled());
            Mono.fromRunnable(() -> { }).subscribeOn(Schedulers.parallel()).block(LONG);
            assertEquals(2, seen.get(), "the other hook stays after ours is removed");
        } finally {
            Schedulers.resetOnScheduleHook("test-other-hook");
        }
    }

    @Test
    void installationsAreCounted_theHookStaysUntilTheLastIsDisposed() {
        Disposable second = ScheduledTaskTracking.install();
        tracking.dispose();
        tracking.dispose(); // idempotent: counts once
        assertTrue(ScheduledTaskTracking.isInstalled());
        second.dispose();
        assertFalse(ScheduledTaskTracking.isInstalled());
        assertTrue(second.isDisposed());
        tracking = ScheduledTaskTracking.install(); // for uninstall()
    }

    @Test
    void withoutTheHookTasksAreNotAttributed() throws Exception {
        tracking.dispose();
        CountingScope scope = new CountingScope();
        Disposable work = ReactorScopes.spawn(onBoundedElastic(body), scope.getToken());
        body.awaitStarted();

        work.dispose();

        assertEquals(0, scope.count(), "released at the cancel, while the body runs: what the hook is for");
        assertTrue(body.running());
        tracking = ScheduledTaskTracking.install();
    }

    @Test
    void aTaskScheduledOutsideSpawnedWorkIsLeftAsItIs() {
        Runnable task = () -> { };
        assertSame(task, dev.senders.scope.internal.TaskAttribution.attribute(task), "no current work: unchanged");
    }
}
