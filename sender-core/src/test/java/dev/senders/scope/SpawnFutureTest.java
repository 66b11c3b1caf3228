package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("P3149R6 [exec.spawn.future] spawn_future")
class SpawnFutureTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    @DisplayName("the result reaches a consumer started before the work finished")
    void consumerStartsBeforeCompletion() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        assertEquals(1, work.starts(), "eager start");
        TestReceiver<String> r = new TestReceiver<>();
        f.connect(r).start();
        assertFalse(r.isDone());
        work.complete("v");
        assertEquals("v", r.value());
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("the result reaches a consumer started after the work finished (value, error, stopped)")
    void consumerStartsAfterCompletion() {
        SimpleCountingScope scope = new SimpleCountingScope();
        assertEquals("v", Senders.syncWait(Scopes.spawnFuture(Senders.just("v"), scope.getToken())));
        IllegalStateException boom = new IllegalStateException("boom");
        TestReceiver<Object> e = new TestReceiver<>();
        Scopes.spawnFuture(Senders.justError(boom), scope.getToken()).connect(e).start();
        assertSame(boom, e.error());
        TestReceiver<Object> s = new TestReceiver<>();
        Scopes.spawnFuture(Senders.justStopped(), scope.getToken()).connect(s).start();
        assertEquals(TestReceiver.Kind.STOPPED, s.kind());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a stop request on the consumer is forwarded to the work; the future completes stopped at once; the count is held until the work ends")
    void consumerStop_forwarded_completesAtOnce_countHeld() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        InplaceStopSource stop = new InplaceStopSource();
        TestReceiver<String> r = new TestReceiver<>(TestSenders.stopEnv(stop.token()));
        f.connect(r).start();
        stop.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind(), "completes without waiting for the work");
        assertTrue(work.receiver().env().stopToken().stopRequested(), "the stop reached the work");
        assertEquals(1, scope.count(), "the work has not ended: the count is held");
        work.complete("late");
        assertEquals(1, r.completions(), "the late result is ignored");
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a consumer whose stop was already requested completes stopped at start and stops the work")
    void consumerAlreadyStopped() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        TestReceiver<String> r = new TestReceiver<>(TestSenders.stopEnv(stop.token()));
        f.connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertTrue(work.receiver().env().stopToken().stopRequested());
        work.complete("x");
        assertEquals(1, r.completions());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("the future is single-shot: a second connect throws IllegalStateException naming the rule")
    void secondConnect_throws() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sender<String> f = Scopes.spawnFuture(Senders.just("v"), scope.getToken());
        f.connect(new TestReceiver<>()).start();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.connect(new TestReceiver<>()));
        assertTrue(e.getMessage().contains("single-shot"), e.getMessage());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("on a closed scope spawn_future never starts the sender and returns a sender that completes stopped")
    void closedScope_completesStopped() {
        SimpleCountingScope scope = new SimpleCountingScope();
        scope.close();
        ManualSender<String> work = new ManualSender<>();
        TestReceiver<String> r = new TestReceiver<>();
        Scopes.spawnFuture(work, scope.getToken()).connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(0, work.connects());
    }

    @Test
    @DisplayName("a future dropped without being connected requests stop on the work (Cleaner)")
    void droppedFuture_requestsStop() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        Scopes.spawnFuture(work, scope.getToken());
        assertTrue(Gc.awaitCondition(() -> work.receiver().env().stopToken().stopRequested()));
        assertEquals(1, scope.count(), "the count is held until the work really ends");
        work.complete("x");
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a future connected but never started, then dropped, requests stop on the work (Cleaner)")
    void connectedNeverStarted_requestsStop() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        connectAndDrop(Scopes.spawnFuture(work, scope.getToken()));
        assertTrue(Gc.awaitCondition(() -> work.receiver().env().stopToken().stopRequested()));
        work.receiver().setStopped();
        Senders.syncWait(scope.join());
    }

    private static void connectAndDrop(Sender<String> f) {
        OperationState op = f.connect(new TestReceiver<>());
        assertTrue(op != null);
    }

    @Test
    @DisplayName("an error of work whose future was dropped goes to Hooks.onErrorDropped")
    void droppedFuture_errorReported() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        SimpleCountingScope scope = new SimpleCountingScope();
        RuntimeException boom = new RuntimeException("boom");
        Scopes.spawnFuture(Senders.justError(boom), scope.getToken());
        assertTrue(Gc.awaitCondition(() -> dropped.contains(boom)));
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a started future does not delay the stop of a dropped future of the same batch")
    void startedFuture_doesNotDelayDroppedBatchMate() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> kept = new ManualSender<>();
        TestReceiver<String> keptConsumer = new TestReceiver<>();
        OperationState keptOp = Scopes.spawnFuture(kept, scope.getToken()).connect(keptConsumer);
        keptOp.start(); // consumed (started) and still reachable below
        ManualSender<String> dropped = new ManualSender<>();
        Scopes.spawnFuture(dropped, scope.getToken()); // same thread: same batch
        assertTrue(Gc.awaitCondition(() -> dropped.receiver().env().stopToken().stopRequested()));
        assertFalse(kept.receiver().env().stopToken().stopRequested(), "the consumed future's work is not stopped");
        kept.complete("k");
        assertEquals("k", keptConsumer.value());
        assertTrue(keptOp != null);
        dropped.complete("late");
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("every dropped future of a thread is stopped, whichever slot of which batch it took")
    void manyDroppedFutures_allStopped() {
        SimpleCountingScope scope = new SimpleCountingScope();
        int n = SpawnFuture.Batch.SIZE + 77; // fills a batch (its slots grow several times) and starts another
        List<ManualSender<Integer>> works = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            ManualSender<Integer> w = new ManualSender<>();
            works.add(w);
            Sender<Integer> f = Scopes.spawnFuture(w, scope.getToken());
            if (i % 3 == 0) {
                f.connect(new TestReceiver<>()); // connected, never started: dropped too
            }
        }
        assertTrue(Gc.awaitCondition(() -> works.stream().allMatch(w -> w.receiver().env().stopToken().stopRequested())));
        assertEquals(n, scope.count(), "the count is held until each work really ends");
        works.forEach(w -> w.receiver().setStopped());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("the work's stop callbacks run once when its consumer stops; one registered after the stop runs inline")
    void workStopCallbacks_runOnConsumerStop() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        InplaceStopSource stop = new InplaceStopSource();
        f.connect(new TestReceiver<>(TestSenders.stopEnv(stop.token()))).start();
        int[] runs = new int[2];
        work.receiver().env().stopToken().onStop(() -> runs[0]++);
        assertEquals(0, runs[0]);
        stop.requestStop();
        assertEquals(1, runs[0], "registered before the stop: ran once, on the stopping thread");
        work.receiver().env().stopToken().onStop(() -> runs[1]++);
        assertEquals(1, runs[1], "registered after the stop: ran inline");
        stop.requestStop();
        assertEquals(1, runs[0]);
        work.complete("x");
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a dropped future whose work already ended with a value or stopped loses nothing and reports nothing")
    void droppedCompletedFuture_reportsNothing() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        SimpleCountingScope scope = new SimpleCountingScope();
        Scopes.spawnFuture(Senders.just("v"), scope.getToken());
        Scopes.spawnFuture(Senders.justStopped(), scope.getToken());
        RuntimeException boom = new RuntimeException("boom");
        Scopes.spawnFuture(Senders.justError(boom), scope.getToken());
        assertEquals(0, scope.count(), "the work ended: nothing is held");
        assertTrue(Gc.awaitCondition(() -> dropped.contains(boom)));
        assertEquals(List.of(boom), dropped, "only the lost error is reported");
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a work whose connect throws releases the association exactly once, also if it completed before throwing")
    void connectThrows_releasesOnce() {
        SimpleCountingScope scope = new SimpleCountingScope();
        IllegalStateException boom = new IllegalStateException("connect failed");
        Sender<String> throwing = r -> {
            throw boom;
        };
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Scopes.spawnFuture(throwing, scope.getToken())));
        assertEquals(0, scope.count());
        Sender<String> completesThenThrows = r -> {
            r.setValue("early");
            throw boom;
        };
        assertSame(boom, assertThrows(IllegalStateException.class,
                () -> Scopes.spawnFuture(completesThenThrows, scope.getToken())));
        assertEquals(0, scope.count(), "released by the completion, not a second time by the failed connect");
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("race: work completion vs consumer start vs consumer stop; exactly one completion, count released (looped)")
    void race_completionVsStartVsStop() throws Exception {
        for (int round = 0; round < 2000; round++) {
            SimpleCountingScope scope = new SimpleCountingScope();
            ManualSender<Integer> work = new ManualSender<>();
            Sender<Integer> f = Scopes.spawnFuture(work, scope.getToken());
            InplaceStopSource stop = new InplaceStopSource();
            TestReceiver<Integer> r = new TestReceiver<>(TestSenders.stopEnv(stop.token()));
            OperationState op = f.connect(r);
            CyclicBarrier b = new CyclicBarrier(3);
            CountDownLatch both = new CountDownLatch(2);
            POOL.execute(() -> {
                await(b);
                work.complete(42);
                both.countDown();
            });
            boolean withStop = round % 2 == 0;
            POOL.execute(() -> {
                await(b);
                if (withStop) {
                    stop.requestStop();
                }
                both.countDown();
            });
            await(b);
            op.start();
            assertTrue(both.await(10, TimeUnit.SECONDS));
            r.await();
            assertEquals(1, r.completions());
            if (r.kind() == TestReceiver.Kind.VALUE) {
                assertEquals(42, r.value());
            } else {
                assertTrue(withStop, "stopped only when stop was requested");
            }
            Senders.syncWait(scope.join());
            assertEquals(0, scope.count());
        }
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
