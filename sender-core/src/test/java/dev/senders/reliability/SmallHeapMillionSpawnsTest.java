package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A million trivial operations into ONE scope under a 64 MB heap: the scope's memory must not grow
 * with the number of operations it has seen, only with the number outstanding. Runs in its own
 * Surefire execution ({@code small-heap} in sender-core/pom.xml, {@code -Xmx64m}); in a JVM with a
 * bigger heap it is skipped (an assumption), since it would prove nothing there.
 *
 * <p>Work is issued in batches of 10,000 with at most 10,000 outstanding (a semaphore): half of each
 * batch completes inline, half later on another thread. An {@code OutOfMemoryError} fails the test.
 */
class SmallHeapMillionSpawnsTest {

    static final int TOTAL = 1_000_000;
    static final int BATCH = 10_000;
    static final int OUTSTANDING = 10_000;

    ExecutorService completer;
    final AtomicInteger dropped = new AtomicInteger();

    @BeforeEach
    void setUp() {
        assumeTrue(Runtime.getRuntime().maxMemory() <= 96L * 1024 * 1024,
                "runs only in the small-heap Surefire execution (-Xmx64m); max heap here is "
                        + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB");
        completer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "small-heap-completer");
            t.setDaemon(true);
            return t;
        });
        Hooks.setOnErrorDropped(e -> dropped.incrementAndGet());
    }

    @AfterEach
    void tearDown() {
        Hooks.resetOnErrorDropped();
        if (completer != null) {
            completer.shutdownNow();
        }
    }

    /** Trivial work: completes with a value inline, or later on the completer thread. */
    final class Trivial implements Sender<Object> {
        final boolean async;
        final boolean registerStop;
        final Semaphore permits;
        final LongAdder done;

        Trivial(boolean async, boolean registerStop, Semaphore permits, LongAdder done) {
            this.async = async;
            this.registerStop = registerStop;
            this.permits = permits;
            this.done = done;
        }

        @Override
        public OperationState connect(Receiver<? super Object> r) {
            return () -> {
                if (!async) {
                    done.increment();
                    permits.release();
                    r.setValue(null);
                    return;
                }
                StopToken token = r.env().stopToken();
                StopCallback cb = registerStop && token.stopPossible() ? token.onStop(() -> { }) : null;
                completer.execute(() -> {
                    if (cb != null) {
                        cb.close(); // the stop-token rule: deregister before completing
                    }
                    done.increment();
                    permits.release();
                    r.setValue(null);
                });
            };
        }
    }

    private static void report(String what, long done) {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.printf("small heap: %s: %,d operations into one scope, max heap %d MB, used after GC %d MB%n",
                what, done, rt.maxMemory() / (1024 * 1024), (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024));
    }

    private static void awaitJoin(Sender<Void> join) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        join.connect(new Receiver<Void>() {
            @Override
            public void setValue(Void v) {
                latch.countDown();
            }

            @Override
            public void setError(Throwable e) {
            }

            @Override
            public void setStopped() {
            }
        }).start();
        assertTrue(latch.await(60, TimeUnit.SECONDS), "join never completed (hang guard)");
    }

    @Test
    @DisplayName("P3149 spawn: 1,000,000 operations into one SimpleCountingScope under -Xmx64m, no OutOfMemoryError")
    void millionSpawns_simpleCountingScope_smallHeap() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Semaphore permits = new Semaphore(OUTSTANDING);
        LongAdder done = new LongAdder();
        for (int b = 0; b < TOTAL / BATCH; b++) {
            boolean async = (b & 1) == 1;
            for (int i = 0; i < BATCH; i++) {
                permits.acquire();
                assertTrue(Scopes.spawn(new Trivial(async, false, permits, done), scope.getToken()));
            }
        }
        scope.close();
        awaitJoin(scope.join());
        assertEquals(TOTAL, done.sum());
        assertEquals(0, scope.count());
        assertEquals(ScopeState.JOINED, scope.state());
        assertEquals(0, dropped.get());
        report("spawn, SimpleCountingScope", done.sum());
    }

    @Test
    @DisplayName("P3149 spawn: 1,000,000 stop-aware operations into one CountingScope under -Xmx64m (stop registrations are released)")
    void millionSpawns_countingScope_stopCallbacksReleased_smallHeap() throws Exception {
        CountingScope scope = new CountingScope();
        Semaphore permits = new Semaphore(OUTSTANDING);
        LongAdder done = new LongAdder();
        for (int b = 0; b < TOTAL / BATCH; b++) {
            boolean async = (b & 1) == 1;
            for (int i = 0; i < BATCH; i++) {
                permits.acquire();
                assertTrue(Scopes.spawn(new Trivial(async, true, permits, done), scope.getToken()));
            }
        }
        scope.close();
        awaitJoin(scope.join());
        assertEquals(TOTAL, done.sum());
        assertEquals(0, scope.count());
        assertEquals(0, dropped.get());
        report("spawn, CountingScope with a stop callback per operation", done.sum());
    }

    @Test
    @DisplayName("P3149 nest: 1,000,000 nested, connected and started operations in one scope under -Xmx64m")
    void millionNests_smallHeap() throws Exception {
        CountingScope scope = new CountingScope();
        Semaphore permits = new Semaphore(OUTSTANDING);
        LongAdder done = new LongAdder();
        LongAdder received = new LongAdder();
        Receiver<Object> sink = new Receiver<>() {
            @Override
            public void setValue(Object v) {
                received.increment();
            }

            @Override
            public void setError(Throwable e) {
            }

            @Override
            public void setStopped() {
            }
        };
        for (int b = 0; b < TOTAL / BATCH; b++) {
            boolean async = (b & 1) == 1;
            for (int i = 0; i < BATCH; i++) {
                permits.acquire();
                Scopes.nest(new Trivial(async, false, permits, done), scope.getToken()).connect(sink).start();
            }
        }
        scope.close();
        awaitJoin(scope.join());
        assertEquals(TOTAL, received.sum());
        assertEquals(0, scope.count());
        report("nest + connect + start", received.sum());
    }

    @Test
    @DisplayName("P3149 spawnFuture: 1,000,000 futures consumed from one scope under -Xmx64m")
    void millionSpawnFutures_smallHeap() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Semaphore permits = new Semaphore(OUTSTANDING);
        LongAdder done = new LongAdder();
        LongAdder received = new LongAdder();
        CountDownLatch allReceived = new CountDownLatch(TOTAL);
        Receiver<Object> sink = new Receiver<>() {
            @Override
            public void setValue(Object v) {
                received.increment();
                allReceived.countDown();
            }

            @Override
            public void setError(Throwable e) {
            }

            @Override
            public void setStopped() {
            }
        };
        for (int b = 0; b < TOTAL / BATCH; b++) {
            boolean async = (b & 1) == 1;
            for (int i = 0; i < BATCH; i++) {
                permits.acquire();
                Scopes.spawnFuture(new Trivial(async, false, permits, done), scope.getToken()).connect(sink).start();
            }
        }
        scope.close();
        awaitJoin(scope.join());
        // the consumers complete after the work dissociated: wait for the last ones
        assertTrue(allReceived.await(30, TimeUnit.SECONDS), "hang guard: " + received.sum() + " received");
        assertEquals(TOTAL, received.sum());
        assertEquals(0, scope.count());
        assertEquals(0, dropped.get());
        report("spawnFuture + consume", received.sum());
    }

    /**
     * The smallest stop-aware operation: it keeps its receiver, registers itself on the receiver's
     * stop token and ends only when stopped (so it never has to close the registration). 16 bytes.
     */
    static final class ParkedUntilStopped implements OperationState, Runnable {
        final Receiver<? super Object> receiver;

        ParkedUntilStopped(Receiver<? super Object> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            receiver.env().stopToken().onStop(this);
        }

        @Override
        public void run() {
            receiver.setStopped();
        }
    }

    @Test
    @DisplayName("P3149 spawn: 1,000,000 operations outstanding at once in a CountingScope, each parked on the scope's stop token, fit in -Xmx64m; requestStop ends them all")
    void millionOutstandingOnTheScopesStopToken_smallHeap() throws Exception {
        CountingScope scope = new CountingScope();
        Sender<Object> parked = ParkedUntilStopped::new;
        for (int i = 0; i < TOTAL; i++) {
            assertTrue(Scopes.spawn(parked, scope.getToken()));
        }
        assertEquals(TOTAL, scope.count());
        report("spawn, 1,000,000 outstanding on a CountingScope's stop token", TOTAL);
        scope.requestStop();
        assertEquals(0, scope.count());
        scope.close();
        awaitJoin(scope.join());
        assertEquals(ScopeState.JOINED, scope.state());
        assertEquals(0, dropped.get());
    }
}
