package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.read;
import static dev.senders.Senders.syncWait;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.testkit.ManualSender;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** P2300R3 [exec.sync_wait], reported as CompletableFuture.join() does. */
class SyncWaitTest {

    @Test
    @DisplayName("[exec.sync_wait] a value is returned")
    void syncWait_returnsValue() {
        assertEquals("v", syncWait(just("v")));
    }

    @Test
    @DisplayName("[exec.sync_wait] a null value is returned as null, distinct from stopped")
    void syncWait_nullValueIsNotStopped() {
        assertNull(syncWait(just()));
        assertNull(syncWait(just((String) null)));
    }

    @Test
    @DisplayName("[exec.sync_wait] an unchecked error is rethrown as is")
    void syncWait_uncheckedErrorRethrown() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> syncWait(Senders.justError(boom))));
    }

    @Test
    @DisplayName("[exec.sync_wait] a checked error is wrapped in CompletionException")
    void syncWait_checkedErrorWrapped() {
        IOException io = new IOException("io");
        CompletionException ce = assertThrows(CompletionException.class, () -> syncWait(Senders.justError(io)));
        assertSame(io, ce.getCause());
    }

    @Test
    @DisplayName("[exec.sync_wait] stopped throws CancellationException")
    void syncWait_stoppedThrowsCancellation() {
        assertThrows(CancellationException.class, () -> syncWait(Senders.justStopped()));
    }

    @Test
    @DisplayName("[exec.sync_wait] interrupting the waiting thread requests stop; the interrupt status is kept")
    void syncWait_interruptRequestsStop() {
        ManualSender<Integer> work = new ManualSender<>(true);
        Thread.currentThread().interrupt();
        try {
            assertThrows(CancellationException.class, () -> syncWait(work));
            assertEquals(1, work.stopsSeen());
        } finally {
            assertTrue(Thread.interrupted());
        }
    }

    @Test
    @DisplayName("[exec.sync_wait] work scheduled on the env's run loop runs on the waiting thread")
    void syncWait_runLoopRunsOnWaitingThread() {
        Thread me = Thread.currentThread();
        assertSame(me, syncWait(read(Query.SCHEDULER).letValue(Senders::schedule).then(v -> Thread.currentThread())));
    }

    private static Sender<Integer> loopWithNestedSyncWait(int i, int n) {
        return just(i).letValue(v -> v < n ? loopWithNestedSyncWait(v + 1, n)
                : just(syncWait(just(v).letValue(x -> just(x + 1)))));
    }

    @Test
    @DisplayName("[exec.sync_wait] a syncWait nested deep inside a trampolined letValue chain does not deadlock")
    void syncWait_nestedInsideDeepLetValueChainDoesNotDeadlock() {
        for (int n = 100; n < 140; n++) { // every depth modulo the trampoline's limit
            int last = n;
            int result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                    () -> syncWait(loopWithNestedSyncWait(0, last)));
            assertEquals(n + 1, result);
        }
    }
}
