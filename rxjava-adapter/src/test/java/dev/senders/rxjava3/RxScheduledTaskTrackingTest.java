package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingWork;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import dev.senders.testkit.NamingToken;
import dev.senders.testkit.StubbornBody;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.functions.Function;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With {@link RxScheduledTaskTracking} installed, work spawned with {@link RxScopes#spawn} stays
 * associated with its scope while the tasks it scheduled on RxJava's schedulers run; the schedule
 * handler is one slot, shared politely.
 */
class RxScheduledTaskTrackingTest {

    private static final Duration SHORT = Duration.ofMillis(50);
    private static final Duration LONG = Duration.ofSeconds(30);

    private final StubbornBody body = new StubbornBody();
    private Disposable tracking;

    @BeforeEach
    void install() {
        tracking = RxScheduledTaskTracking.install();
    }

    @AfterEach
    void uninstall() {
        body.release();
        tracking.dispose();
        RxJavaPlugins.setScheduleHandler(null);
    }

    private static Completable onIo(Runnable r) {
        return Completable.fromRunnable(r).subscribeOn(Schedulers.io());
    }

    private static void awaitJoined(CountingScope scope) {
        Senders.syncWait(scope.join());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    void workWhoseBodyIgnoresDisposalIsReportedAbandonedAndStillRunningByName_untilItsBodyReturns()
            throws Exception {
        CountingScope scope = new CountingScope("rx-stubborn");
        RxScopes.spawn(onIo(body), new NamingToken(scope.getToken(), "stubborn-completable"));
        body.awaitStarted();

        ShutdownReport report = Scopes.joinOrStop(scope, SHORT, SHORT);

        assertTrue(body.running(), "the body still runs");
        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome(), report::toString);
        List<OutstandingWork> still = report.stillRunning();
        assertEquals(1, still.size());
        assertEquals("stubborn-completable", still.get(0).name().orElseThrow());
        assertTrue(report.toString().contains("stubborn-completable"), report::toString);

        body.release();
        awaitJoined(scope);
        assertTrue(body.ended(), "joined only once the body returned");
    }

    @Test
    void shutdownWaitsWithinItsStopTimeoutForABodyThatEndsAfterTheStopRequest() throws Exception {
        CountingScope scope = new CountingScope();
        RxScopes.spawn(onIo(body).doOnDispose(body::release), scope.getToken());
        body.awaitStarted();

        ShutdownReport report = Scopes.joinOrStop(scope, SHORT, LONG);

        assertEquals(ShutdownReport.Outcome.STOPPED, report.outcome(), report::toString);
        assertTrue(body.ended(), "the report came after the body returned");
    }

    @Test
    void aTaskDisposedBeforeItStartsHoldsNothing() {
        CountingScope scope = new CountingScope();
        Disposable work = RxScopes.spawn(Completable.timer(1, TimeUnit.HOURS), scope.getToken());
        assertEquals(1, scope.count());

        work.dispose();

        assertEquals(0, scope.count());
        scope.close();
        awaitJoined(scope);
    }

    @Test
    void theHandlerInstalledBeforeKeepsWorking_andRemovalRestoresIt() throws Exception {
        tracking.dispose();
        AtomicInteger seen = new AtomicInteger();
        Function<Runnable, Runnable> previous = r -> {
            seen.incrementAndGet();
            return r;
        };
        RxJavaPlugins.setScheduleHandler(previous);
        tracking = RxScheduledTaskTracking.install();

        CountingScope scope = new CountingScope();
        Disposable work = RxScopes.spawn(onIo(body), scope.getToken());
        body.awaitStarted();
        assertTrue(seen.get() > 0, "the previous handler saw the task");
        work.dispose();
        assertEquals(1, scope.count(), "ours counts it");
        body.release();
        scope.close();
        awaitJoined(scope);

        tracking.dispose();
        assertFalse(RxScheduledTaskTracking.isInstalled());
        assertSame(previous, RxJavaPlugins.getScheduleHandler(), "removal put the previous handler back");
    }

    @Test
    void aHandlerInstalledOverOursIsLeftInPlaceOnRemoval() {
        assertTrue(RxJavaPlugins.getScheduleHandler() != null, "ours is installed");
        Function<Runnable, Runnable> over = r -> r;
        RxJavaPlugins.setScheduleHandler(over);

        tracking.dispose();

        assertSame(over, RxJavaPlugins.getScheduleHandler());
    }

    @Test
    void installingAfterLockdownFailsWithAMessageSayingWhatToDo() throws Exception {
        tracking.dispose();
        RxJavaPlugins.setScheduleHandler(null);
        RxJavaPlugins.lockdown();
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, RxScheduledTaskTracking::install);
            assertTrue(e.getMessage().contains("locked down"), e.getMessage());
            assertTrue(e.getMessage().contains("before RxJavaPlugins.lockdown()"), e.getMessage());
            assertFalse(RxScheduledTaskTracking.isInstalled());
        } finally {
            unlock();
        }
        tracking = RxScheduledTaskTracking.install();
    }

    /** RxJava's own tests unlock its plugins this way (the method is package-private). */
    private static void unlock() throws Exception {
        Method unlock = RxJavaPlugins.class.getDeclaredMethod("unlock");
        unlock.setAccessible(true);
        unlock.invoke(null);
    }
}
