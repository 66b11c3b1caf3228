package dev.senders.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import dev.senders.internal.SharedTimer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

class VirtualTimeTest {

    @Test
    void aThirtySecondTimeoutFiresWhenTheClockIsAdvancedWithNoRealWait() {
        long t0 = System.nanoTime();
        try (VirtualTime time = VirtualTime.install()) {
            TestReceiver<Void> r = TestReceiver.start(
                    Senders.fromCompletionStage(new CompletableFuture<Void>()).timeout(Duration.ofSeconds(30)));
            assertEquals(1, time.pendingTasks());
            time.advanceBy(Duration.ofSeconds(30).minusNanos(1));
            r.assertNotCompleted();
            time.advanceBy(Duration.ofNanos(1));
            r.assertError(TimeoutException.class)
                    .assertErrorMessage("timeout: the work did not complete within 30 s (stop was requested on it at the deadline)");
            assertEquals(Duration.ofSeconds(30), time.now());
            assertEquals(0, time.pendingTasks());
        }
        // a bound that only a real 30 s wait would break; it checks that nothing waited on the real timer
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(20).toNanos());
    }

    @Test
    void joinOrStopsThirtySecondGraceThenStopRunsOnTheVirtualClock() {
        long t0 = System.nanoTime();
        try (VirtualTime time = VirtualTime.install()) {
            CountingScope scope = new CountingScope("shutdown");
            Scopes.spawn(Scopes.named(Senders.fromCompletionStage(new CompletableFuture<Void>()), "honours-stop"),
                    scope.getToken());
            TestReceiver<ShutdownReport> r = TestReceiver.start(
                    Scopes.joinOrStopAsync(scope, Duration.ofSeconds(30), Duration.ofSeconds(10)));
            time.advanceBy(Duration.ofSeconds(30).minusNanos(1));
            r.assertNotCompleted();
            time.advanceBy(Duration.ofNanos(1)); // the grace deadline: stop is requested (on a stop thread)
            ShutdownReport report = r.await().value();
            assertTrue(report.joined() && report.stopRequested(), report.toString());
        }
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(20).toNanos());
    }

    @Test
    void joinOrStopsStopTimeoutRunsOnTheVirtualClockForWorkThatIgnoresStop() {
        try (VirtualTime time = VirtualTime.install()) {
            CountingScope scope = new CountingScope("stuck");
            Sender<Void> ignoresStop = receiver -> () -> { }; // never completes, ignores stop
            Scopes.spawn(Scopes.named(ignoresStop, "stubborn"), scope.getToken());
            TestReceiver<ShutdownReport> r = TestReceiver.start(
                    Scopes.joinOrStopAsync(scope, Duration.ofSeconds(30), Duration.ofSeconds(10)));
            time.advanceBy(Duration.ofSeconds(30));
            time.advanceBy(Duration.ofSeconds(10).minusNanos(1));
            r.assertNotCompleted();
            time.advanceBy(Duration.ofNanos(1)); // the stop deadline: the report, on this thread
            ShutdownReport report = r.value();
            assertTrue(!report.joined() && report.stopRequested(), report.toString());
            assertTrue(report.toString().contains("stubborn"), report.toString());
        }
    }

    @Test
    void workThatCompletesBeforeTheDeadlineCancelsItsTimerTask() {
        try (VirtualTime time = VirtualTime.install()) {
            CompletableFuture<String> work = new CompletableFuture<>();
            TestReceiver<String> r = TestReceiver.start(Senders.fromCompletionStage(work).timeout(Duration.ofSeconds(5)));
            work.complete("in time");
            r.assertValue("in time");
            assertEquals(0, time.pendingTasks());
            time.advanceBy(Duration.ofMinutes(1));
            r.assertValue("in time");
        }
    }

    @Test
    void dueTasksRunInDueOrderWithTheClockAtTheirDueTimeOnTheAdvancingThread() {
        try (VirtualTime time = VirtualTime.install()) {
            List<String> ran = new ArrayList<>();
            SharedTimer.schedule(() -> ran.add("b@" + time.now().toMillis() + "@" + Thread.currentThread().getName()), 2_000_000L);
            SharedTimer.schedule(() -> {
                ran.add("a@" + time.now().toMillis());
                SharedTimer.schedule(() -> ran.add("c@" + time.now().toMillis()), 2_000_000L); // due at 3 ms: same advance
            }, 1_000_000L);
            SharedTimer.schedule(() -> ran.add("d"), 10_000_000L);
            time.advanceTo(Duration.ofMillis(5));
            assertEquals(List.of("a@1", "b@2@" + Thread.currentThread().getName(), "c@3"), ran);
            assertEquals(Duration.ofMillis(5), time.now());
            assertEquals(5_000_000L, SharedTimer.nanoTime());
            assertEquals(1, time.pendingTasks());
        }
    }

    @Test
    void closingPutsTheRealClockBackAndOnlyOneIsInstalledAtATime() {
        VirtualTime time = VirtualTime.install();
        try {
            IllegalStateException second = assertThrows(IllegalStateException.class, VirtualTime::install);
            assertTrue(second.getMessage().contains("another virtual clock is installed"), second.getMessage());
        } finally {
            time.close();
        }
        long real = System.nanoTime();
        assertTrue(Math.abs(SharedTimer.nanoTime() - real) < Duration.ofSeconds(10).toNanos(), "the real clock again");
        VirtualTime.install().close(); // installable again
    }

    @Test
    void timeOnlyMovesForward() {
        try (VirtualTime time = VirtualTime.install()) {
            time.advanceBy(Duration.ofSeconds(2));
            assertThrows(IllegalArgumentException.class, () -> time.advanceBy(Duration.ofSeconds(-1)));
            IllegalArgumentException back = assertThrows(IllegalArgumentException.class, () -> time.advanceTo(Duration.ofSeconds(1)));
            assertTrue(back.getMessage().contains("time only moves forward"));
        }
    }

    @Test
    @ExtendWith(SendersExtension.class)
    void theExtensionInstallsVirtualTimeForATestThatAsksForIt(VirtualTime time) {
        TestReceiver<Void> r = TestReceiver.start(Senders.fromCompletionStage(new CompletableFuture<Void>()).timeout(Duration.ofHours(1)));
        time.advanceBy(Duration.ofHours(1));
        r.assertError(TimeoutException.class);
    }
}
