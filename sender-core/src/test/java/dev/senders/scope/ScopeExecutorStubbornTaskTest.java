package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.testkit.StubbornBody;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link ScopeExecutor} view counts a task until it returns, interrupt or not: a shutdown never
 * reports its scope joined while a task's code still runs; it waits for it within the stop timeout,
 * or reports it abandoned and still running, by name.
 */
class ScopeExecutorStubbornTaskTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final StubbornBody body = new StubbornBody();

    @AfterEach
    void tearDown() {
        body.release();
        pool.shutdown();
    }

    @Test
    void aTaskThatIgnoresTheInterruptIsReportedAbandonedAndStillRunningByName_untilItReturns() throws Exception {
        CountingScope scope = new CountingScope("executor-stubborn");
        ScopeExecutor tasks = ScopeExecutor.of(pool, scope);
        tasks.execute(ScopeExecutor.named(body, "stubborn-task"));
        body.awaitStarted();

        ShutdownReport report = Scopes.joinOrStop(scope, Duration.ofMillis(50), Duration.ofMillis(50));

        assertTrue(body.running(), "the task still runs");
        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome(), report::toString);
        assertEquals("stubborn-task", report.stillRunning().get(0).name().orElseThrow());
        assertEquals(1, scope.count());

        body.release();
        Senders.syncWait(scope.join());
        assertTrue(body.ended(), "joined only once the task returned");
        assertTrue(body.wasInterrupted(), "the stop request interrupted it");
    }

    @Test
    void aShutdownWaitsWithinItsStopTimeoutForATaskThatEndsAfterTheInterrupt() throws Exception {
        CountingScope scope = new CountingScope();
        ScopeExecutor tasks = ScopeExecutor.of(pool, scope);
        tasks.execute(body);
        body.awaitStarted();
        // the task ignores the interrupt; the stop request's own callback lets it go, after the interrupt
        scope.stopToken().onStop(body::release);

        ShutdownReport report = Scopes.joinOrStop(scope, Duration.ofMillis(50), Duration.ofSeconds(30));

        assertEquals(ShutdownReport.Outcome.STOPPED, report.outcome(), report::toString);
        assertTrue(body.ended(), "the report came after the task returned");
    }
}
