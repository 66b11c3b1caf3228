package dev.senders;

import static dev.senders.Senders.fromCompletionStage;
import static dev.senders.Senders.just;
import static dev.senders.Senders.syncWait;
import static dev.senders.Senders.toCompletableFuture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CompletionStage interop both ways: cancel = stop request, stopped = CancellationException. */
class CompletionStageInteropTest {

    @Test
    @DisplayName("fromCompletionStage: value, unwrapped error, CancellationException -> stopped")
    void fromCompletionStage_valueErrorCancellation() {
        assertEquals(1, syncWait(fromCompletionStage(CompletableFuture.completedFuture(1))));
        IOException io = new IOException();
        CompletableFuture<Integer> failedLater = CompletableFuture.<Integer>failedFuture(io).thenApply(x -> x);
        TestReceiver<Integer> r = new TestReceiver<>();
        fromCompletionStage(failedLater).connect(r).start();
        assertSame(io, r.single().payload(), "CompletionException must be unwrapped");
        CompletableFuture<Integer> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);
        TestReceiver<Integer> r2 = new TestReceiver<>();
        fromCompletionStage(cancelled).connect(r2).start();
        assertEquals(TestReceiver.Kind.STOPPED, r2.single().kind());
    }

    @Test
    @DisplayName("fromCompletionStage: completes on the thread that completes the stage")
    void fromCompletionStage_completesOnCompletingThread() throws Exception {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        TestReceiver<Integer> r = new TestReceiver<>();
        fromCompletionStage(f).connect(r).start();
        assertEquals(0, r.completions());
        Thread completer = new Thread(() -> f.complete(3), "completer");
        completer.start();
        TestReceiver.Signal s = r.awaitSingle();
        assertEquals(3, s.payload());
        assertSame(completer, s.thread());
    }

    @Test
    @DisplayName("fromCompletionStage: a stop request cancels the future and completes stopped")
    void fromCompletionStage_stopRequestCancelsFuture() {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        InplaceStopSource stop = new InplaceStopSource();
        TestReceiver<Integer> r = TestReceiver.withStopToken(stop.token());
        fromCompletionStage(f).connect(r).start();
        stop.requestStop();
        assertTrue(f.isCancelled());
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("fromCompletionStage(Supplier): lazy per start; stop before start never calls the supplier")
    void fromCompletionStage_supplierIsLazy() {
        AtomicInteger calls = new AtomicInteger();
        Sender<Integer> s = fromCompletionStage(() -> CompletableFuture.completedFuture(calls.incrementAndGet()));
        s.connect(new TestReceiver<>());
        assertEquals(0, calls.get());
        assertEquals(1, syncWait(s));
        assertEquals(2, syncWait(s));
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        TestReceiver<Integer> r = TestReceiver.withStopToken(stop.token());
        s.connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
        assertEquals(2, calls.get());
    }

    @Test
    @DisplayName("fromCompletionStage: a stage that is not a Future is detached: completes stopped on a stop request")
    void fromCompletionStage_stageWithoutToCompletableFuture() {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        CompletionStage<Integer> minimal = f.minimalCompletionStage();
        InplaceStopSource stop = new InplaceStopSource();
        TestReceiver<Integer> r = TestReceiver.withStopToken(stop.token());
        fromCompletionStage(minimal).connect(r).start();
        stop.requestStop();
        f.complete(1); // ignored: the operation already completed
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("toCompletableFuture: value, error, stopped -> CancellationException")
    void toCompletableFuture_valueErrorStopped() throws Exception {
        assertEquals(5, toCompletableFuture(just(5)).get(10, TimeUnit.SECONDS));
        IOException io = new IOException();
        ExecutionException ee = assertThrows(ExecutionException.class,
                () -> toCompletableFuture(Senders.justError(io)).get(10, TimeUnit.SECONDS));
        assertSame(io, ee.getCause());
        CompletableFuture<Object> stopped = toCompletableFuture(Senders.justStopped());
        assertTrue(stopped.isCancelled());
        assertThrows(CancellationException.class, stopped::join);
    }

    @Test
    @DisplayName("toCompletableFuture: cancel of the future is a stop request on the work")
    void toCompletableFuture_cancelRequestsStop() {
        ManualSender<Integer> work = new ManualSender<>(true);
        CompletableFuture<Integer> f = toCompletableFuture(work);
        assertEquals(1, work.starts(), "starts now");
        assertTrue(f.cancel(false));
        assertEquals(1, work.stopsSeen());
        assertTrue(f.isCancelled());
        // dependents are plain futures and see the cancellation
        java.util.concurrent.CompletionException ce = assertThrows(java.util.concurrent.CompletionException.class,
                () -> f.thenApply(x -> x).join());
        assertTrue(ce.getCause() instanceof CancellationException);
    }

    @Test
    @DisplayName("round trip: sender -> future -> sender keeps value, error and stopped")
    void roundTrip() {
        assertEquals(9, syncWait(fromCompletionStage(toCompletableFuture(just(9)))));
        assertThrows(CancellationException.class,
                () -> syncWait(fromCompletionStage(toCompletableFuture(Senders.justStopped()))));
        IllegalStateException boom = new IllegalStateException();
        assertSame(boom, assertThrows(IllegalStateException.class,
                () -> syncWait(fromCompletionStage(toCompletableFuture(Senders.justError(boom))))));
    }

    private static Sender<Integer> loopJoiningAFuture(int i, int n) {
        return just(i).letValue(v -> v < n ? loopJoiningAFuture(v + 1, n)
                : just(toCompletableFuture(just(v).letValue(x -> just(x + 1))).join()));
    }

    @Test
    @DisplayName("toCompletableFuture: synchronous work is complete when it returns, even deep in a let chain")
    void toCompletableFuture_joinInsideDeepLetChainDoesNotDeadlock() {
        for (int n = 100; n < 140; n++) {
            int last = n;
            int result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                    () -> syncWait(loopJoiningAFuture(0, last)));
            assertEquals(n + 1, result);
        }
    }
}
