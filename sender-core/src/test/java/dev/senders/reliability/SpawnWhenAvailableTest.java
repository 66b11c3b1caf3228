package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@code Scopes.spawnWhenAvailable}: a producer that would rather wait for room than drop work. */
class SpawnWhenAvailableTest {

    @Test
    void withRoom_spawnsAtOnce_onTheStartingThread() {
        CountingScope scope = CountingScope.builder().maxOutstanding(2).build();
        ManualSender<Integer> work = new ManualSender<>();
        TestReceiver<Boolean> r = TestReceiver.start(Scopes.spawnWhenAvailable(work, scope));
        r.assertValue(true);
        assertSame(Thread.currentThread(), r.thread());
        assertEquals(1, work.starts());
        assertEquals(1, scope.count());
    }

    @Test
    void atTheLimit_waitsUntilWorkEnds_thenSpawnsOnTheThreadThatMadeRoom_withoutCountingARefusal() throws Exception {
        SimpleCountingScope scope = SimpleCountingScope.builder().maxOutstanding(1).build();
        ManualSender<Integer> first = new ManualSender<>();
        assertTrue(Scopes.spawn(first, scope.getToken()));
        ManualSender<Integer> second = new ManualSender<>();
        TestReceiver<Boolean> r = TestReceiver.start(Scopes.spawnWhenAvailable(second, scope));
        r.assertNotCompleted();
        assertEquals(0, second.connects());
        Thread completer = new Thread(() -> first.complete(1), "room-maker");
        completer.start();
        completer.join();
        r.await();
        r.assertValue(true);
        assertEquals("room-maker", r.thread().getName());
        assertEquals(1, second.starts());
        assertEquals(1, scope.count());
        assertEquals(0, scope.refusedCount(), "a waiting producer is not a refusal");
    }

    @Test
    void aScopeClosedWhileWaiting_completesFalse_andTheWorkNeverStarts() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        ManualSender<Integer> held = new ManualSender<>();
        Scopes.spawn(held, scope.getToken());
        ManualSender<Integer> work = new ManualSender<>();
        TestReceiver<Boolean> r = TestReceiver.start(Scopes.spawnWhenAvailable(work, scope));
        scope.close();
        r.assertValue(false);
        assertEquals(0, work.connects());
        assertEquals(1, scope.refusedCount(RefusalReason.CLOSED));
        held.complete(0);
        Senders.syncWait(scope.join());
    }

    @Test
    void aStopWhileWaiting_completesStopped_andLeavesTheScopeAlone() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        ManualSender<Integer> held = new ManualSender<>();
        Scopes.spawn(held, scope.getToken());
        ManualSender<Integer> work = new ManualSender<>();
        TestReceiver<Boolean> r = TestReceiver.withStopSource();
        Scopes.spawnWhenAvailable(work, scope).connect(r).start();
        r.requestStop();
        r.assertStopped();
        held.complete(0);
        assertEquals(0, work.connects(), "the stopped producer's work never starts");
        assertEquals(0, scope.count());
        assertEquals(1, r.completions());
    }

    @Test
    void aDeadline_failsWithTimeoutException_andTheWorkNeverStarts() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        ManualSender<Integer> held = new ManualSender<>();
        Scopes.spawn(held, scope.getToken());
        ManualSender<Integer> work = new ManualSender<>();
        CompletionException e = assertThrows(CompletionException.class,
                () -> Senders.syncWait(Scopes.spawnWhenAvailable(work, scope).timeout(Duration.ofMillis(50))));
        assertInstanceOf(TimeoutException.class, e.getCause());
        held.complete(0);
        assertEquals(0, work.connects());
    }

    @Test
    void raisingTheLimit_letsAWaitingProducerIn() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        Scopes.spawn(new ManualSender<Integer>(), scope.getToken());
        TestReceiver<Boolean> r = TestReceiver.start(Scopes.spawnWhenAvailable(new ManualSender<Integer>(), scope));
        r.assertNotCompleted();
        scope.setMaxOutstanding(2);
        r.assertValue(true);
        assertEquals(2, scope.count());
    }

    @Test
    void aClosedScope_completesFalseAtOnce() {
        CountingScope scope = new CountingScope();
        scope.close();
        TestReceiver.start(Scopes.spawnWhenAvailable(Senders.just(1), scope)).assertValue(false);
    }

    @Test
    void itsOperationStartedTwice_throws() {
        CountingScope scope = new CountingScope();
        TestReceiver<Boolean> r = new TestReceiver<>();
        OperationState op = Scopes.spawnWhenAvailable(Senders.just(1), scope).connect(r);
        op.start();
        assertThrows(ProtocolViolationException.class, op::start);
        assertEquals(1, r.completions());
    }

    @Test
    void manyProducersThroughASmallScope_allWorkRuns_andTheLimitHolds() throws Exception {
        int limit = 3;
        int producers = 4;
        int each = 2_000;
        CountingScope scope = CountingScope.builder().maxOutstanding(limit).build();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicInteger ran = new AtomicInteger();
        AtomicLong running = new AtomicLong();
        AtomicLong maxSeen = new AtomicLong();
        try {
            Thread[] threads = new Thread[producers];
            for (int t = 0; t < producers; t++) {
                threads[t] = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        boolean spawned = Senders.syncWait(Scopes.spawnWhenAvailable(
                                Senders.schedule(dev.senders.Schedulers.fromExecutor(pool)).then(v -> {
                                    maxSeen.accumulateAndGet(running.incrementAndGet(), Math::max);
                                    ran.incrementAndGet();
                                    running.decrementAndGet();
                                    return v;
                                }), scope));
                        assertTrue(spawned);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            scope.close();
            Senders.syncWait(scope.join());
        } finally {
            pool.shutdown();
        }
        assertEquals(producers * each, ran.get());
        assertTrue(maxSeen.get() <= limit, "at most " + limit + " at once, saw " + maxSeen.get());
        assertEquals(0, scope.refusedCount());
    }
}
