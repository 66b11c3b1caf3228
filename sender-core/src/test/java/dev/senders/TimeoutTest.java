package dev.senders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.internal.SharedTimer;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("timeout(sender, d): stop at the deadline and fail with TimeoutException, on one shared timer")
class TimeoutTest {

    @Test
    @DisplayName("timeout stops its inner sender and fails with TimeoutException")
    void timeout_stopsInnerAndFails() {
        ManualSender<Integer> work = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.start(work.timeout(Duration.ofMillis(20)));
        r.await();
        assertEquals(1, work.stopsSeen());
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertTrue(r.error() instanceof TimeoutException, () -> "error: " + r.error());
        assertTrue(r.error().getMessage().contains("within 20 ms"), r.error().getMessage());
        assertEquals(SharedTimer.THREAD_NAME, r.thread().getName(),
                "work that completes in its stop callback delivers on the timer thread");
    }

    @Test
    @DisplayName("syncWait of a timed-out sender throws CompletionException(TimeoutException), as for any checked error")
    void syncWait_timedOut_wrapped() {
        CompletionException e = assertThrows(CompletionException.class,
                () -> Senders.syncWait(Senders.timeout(new ManualSender<Integer>(true), Duration.ofMillis(5))));
        assertTrue(e.getCause() instanceof TimeoutException);
    }

    @Test
    @DisplayName("work that completes first passes through and its timer entry is cancelled")
    void completesFirst_passesThrough_timerCancelled() {
        ManualSender<Integer> work = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.start(Senders.timeout(work, Duration.ofHours(1)));
        assertEquals(1, SharedTimer.pendingTasks());
        work.complete(9);
        assertEquals(9, r.value());
        assertEquals(0, SharedTimer.pendingTasks(), "a timeout whose work completed first leaves nothing queued");
        assertEquals(0, work.stopsSeen());
        assertEquals(4, Senders.syncWait(Senders.just(4).timeout(Duration.ofSeconds(1))));
        assertEquals(0, SharedTimer.pendingTasks());
    }

    @Test
    @DisplayName("structured: after the deadline the operation waits for its inner sender before failing")
    void structured_waitsForInnerAfterStop() throws Exception {
        ManualSender<Integer> work = new ManualSender<>(false); // sees stop, completes when told
        TestReceiver<Integer> r = TestReceiver.start(Senders.timeout(work, Duration.ofMillis(5)));
        assertTrue(work.awaitStopSeen(Duration.ofSeconds(10)), "hang guard: the deadline's stop never reached the work");
        assertFalse(r.isDone(), "nothing completes while the inner work still runs");
        IllegalStateException cause = new IllegalStateException("interrupted by stop");
        work.fail(cause);
        assertTrue(r.error() instanceof TimeoutException);
        assertSame(cause, r.error().getSuppressed()[0], "the inner error is kept, suppressed");
    }

    @Test
    @DisplayName("a downstream stop request reaches the inner sender and completes stopped")
    void downstreamStop_passesThrough() {
        ManualSender<Integer> work = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.withStopSource();
        Senders.timeout(work, Duration.ofHours(1)).connect(r).start();
        r.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(0, SharedTimer.pendingTasks());
    }

    @Test
    @DisplayName("errors and values before the deadline pass through unchanged")
    void errorBeforeDeadline_passesThrough() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class,
                () -> Senders.syncWait(Senders.<Integer>justError(boom).timeout(Duration.ofSeconds(5)))));
    }

    @Test
    @DisplayName("a zero or negative timeout requests stop on the starting thread before the inner sender starts")
    void zeroTimeout_stopsBeforeStart() {
        ManualSender<Integer> work = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.start(Senders.timeout(work, Duration.ofMillis(-1)));
        assertEquals(1, work.stopsSeen());
        assertTrue(r.error() instanceof TimeoutException);
        assertSame(Thread.currentThread(), r.thread());
    }

    @Test
    @DisplayName("one shared daemon timer thread serves all timeouts")
    void oneSharedDaemonTimer() {
        java.util.Set<Thread> timerThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 20; i++) {
            ManualSender<Integer> w = new ManualSender<>(true);
            TestReceiver<Integer> r = TestReceiver.start(w.timeout(Duration.ofMillis(20)));
            Thread t = r.await().thread();
            if (t != Thread.currentThread()) { // a deadline that passed before start fires on this thread
                timerThreads.add(t);
            }
        }
        assertEquals(1, timerThreads.size(), timerThreads::toString);
        Thread t = timerThreads.iterator().next();
        assertEquals(SharedTimer.THREAD_NAME, t.getName());
        assertTrue(t.isDaemon());
        assertTrue(Hooks.isNonBlockingThread(t));
    }

    @Test
    @DisplayName("null arguments are rejected")
    void nulls() {
        assertThrows(NullPointerException.class, () -> Senders.timeout(null, Duration.ZERO));
        assertThrows(NullPointerException.class, () -> Senders.timeout(Senders.just(), null));
        assertThrows(NullPointerException.class, () -> Senders.just().timeout(null));
    }
}
