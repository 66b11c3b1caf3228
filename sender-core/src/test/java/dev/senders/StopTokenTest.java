package dev.senders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** P2300R3 [thread.stoptoken], [stopsource.inplace]. */
class StopTokenTest {

    @Test
    @DisplayName("[stopcallback.cons] a callback registered on an already-stopped token runs inline")
    void callbackOnAlreadyStoppedTokenRunsInline() {
        InplaceStopSource source = new InplaceStopSource();
        assertTrue(source.requestStop());
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        StopCallback cb = source.token().onStop(() -> ranOn.set(Thread.currentThread()));
        assertSame(Thread.currentThread(), ranOn.get());
        cb.close();
    }

    @Test
    @DisplayName("[stopcallback.dtor] no call after deregistration returns (sequential)")
    void noCallAfterDeregistrationReturns() {
        InplaceStopSource source = new InplaceStopSource();
        AtomicInteger calls = new AtomicInteger();
        StopCallback cb = source.token().onStop(calls::incrementAndGet);
        cb.close();
        source.requestStop();
        assertEquals(0, calls.get());
    }

    @Test
    @DisplayName("[stopcallback.dtor] no call after deregistration returns (raced with requestStop, many times)")
    void noCallAfterDeregistrationReturns_raced() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            InplaceStopSource source = new InplaceStopSource();
            AtomicBoolean closed = new AtomicBoolean();
            AtomicBoolean violated = new AtomicBoolean();
            StopCallback cb = source.token().onStop(() -> {
                if (closed.get()) {
                    violated.set(true);
                }
            });
            Thread stopper = new Thread(source::requestStop);
            stopper.start();
            cb.close();
            closed.set(true);
            stopper.join(10_000);
            assertFalse(violated.get(), "callback ran after close() returned, iteration " + i);
        }
    }

    @Test
    @DisplayName("[stopcallback.dtor] deregistration waits for a callback running on another thread")
    void deregistrationWaitsForCallbackRunningOnAnotherThread() throws Exception {
        InplaceStopSource source = new InplaceStopSource();
        CountDownLatch inCallback = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean callbackFinished = new AtomicBoolean();
        AtomicBoolean finishedBeforeCloseReturned = new AtomicBoolean();
        StopCallback cb = source.token().onStop(() -> {
            inCallback.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            callbackFinished.set(true);
        });
        Thread stopper = new Thread(source::requestStop);
        stopper.start();
        assertTrue(inCallback.await(10, TimeUnit.SECONDS));
        AtomicBoolean closeReturned = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            cb.close();
            finishedBeforeCloseReturned.set(callbackFinished.get());
            closeReturned.set(true);
        });
        closer.start();
        // wait until the closer is parked in close() (hang guard: 10 s)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closer.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.WAITING, closer.getState());
        assertFalse(closeReturned.get());
        release.countDown();
        closer.join(10_000);
        stopper.join(10_000);
        assertTrue(closeReturned.get());
        assertTrue(finishedBeforeCloseReturned.get());
    }

    @Test
    @DisplayName("[stopcallback.dtor] close() from inside the callback returns at once")
    void closeFromInsideOwnCallbackReturns() {
        InplaceStopSource source = new InplaceStopSource();
        AtomicReference<StopCallback> self = new AtomicReference<>();
        AtomicBoolean returned = new AtomicBoolean();
        self.set(source.token().onStop(() -> {
            self.get().close();
            returned.set(true);
        }));
        source.requestStop();
        assertTrue(returned.get());
    }

    @Test
    @DisplayName("[stopsource.inplace] requestStop raced from several threads runs each callback exactly once")
    void requestStopRacedRunsEachCallbackExactlyOnce() throws Exception {
        int threads = 4;
        for (int iteration = 0; iteration < 500; iteration++) {
            InplaceStopSource source = new InplaceStopSource();
            AtomicInteger[] counts = new AtomicInteger[16];
            for (int i = 0; i < counts.length; i++) {
                AtomicInteger c = counts[i] = new AtomicInteger();
                source.token().onStop(c::incrementAndGet);
            }
            CyclicBarrier barrier = new CyclicBarrier(threads);
            AtomicInteger winners = new AtomicInteger();
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                ts[t] = new Thread(() -> {
                    try {
                        barrier.await(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    if (source.requestStop()) {
                        winners.incrementAndGet();
                    }
                });
                ts[t].start();
            }
            for (Thread t : ts) {
                t.join(10_000);
            }
            assertEquals(1, winners.get(), "requestStop returned true more than once");
            for (AtomicInteger c : counts) {
                assertEquals(1, c.get(), "iteration " + iteration);
            }
        }
    }

    @Test
    @DisplayName("[stopsource.inplace] register/deregister churn keeps memory bounded and stop still runs the live callback")
    void deregistrationChurnKeepsMemoryBounded() throws Exception {
        InplaceStopSource source = new InplaceStopSource();
        AtomicInteger live = new AtomicInteger();
        StopCallback keep = source.token().onStop(live::incrementAndGet);
        for (int i = 0; i < 1_000_000; i++) {
            source.token().onStop(() -> { }).close();
        }
        assertTrue(linkedNodes(source) < 1_000, "linked nodes after churn: " + linkedNodes(source));
        source.requestStop();
        assertEquals(1, live.get());
        keep.close();
    }

    private static int linkedNodes(InplaceStopSource source) throws Exception {
        Field head = InplaceStopSource.class.getDeclaredField("head");
        head.setAccessible(true);
        Field next = InplaceStopSource.Node.class.getDeclaredField("next");
        next.setAccessible(true);
        int n = 0;
        for (Object node = head.get(source); node != null; node = next.get(node)) {
            n++;
        }
        return n;
    }

    @Test
    @DisplayName("[stoptoken.never] the never token is not stoppable and retains nothing")
    void neverTokenIsNotStoppable() {
        StopToken never = StopToken.never();
        assertFalse(never.stopPossible());
        assertFalse(never.stopRequested());
        AtomicInteger calls = new AtomicInteger();
        never.onStop(calls::incrementAndGet).close();
        assertEquals(0, calls.get());
    }

    @Test
    @DisplayName("[stopsource.inplace] a throwing callback goes to Hooks.onErrorDropped and the others still run")
    void throwingCallbackIsReportedAndOthersRun() {
        AtomicReference<Throwable> dropped = new AtomicReference<>();
        Hooks.setOnErrorDropped(dropped::set);
        try {
            InplaceStopSource source = new InplaceStopSource();
            AtomicInteger calls = new AtomicInteger();
            RuntimeException boom = new RuntimeException("boom");
            source.token().onStop(calls::incrementAndGet);
            source.token().onStop(() -> { throw boom; });
            source.token().onStop(calls::incrementAndGet);
            source.requestStop();
            assertEquals(2, calls.get());
            assertSame(boom, dropped.get());
        } finally {
            Hooks.resetOnErrorDropped();
        }
    }

    @Test
    @DisplayName("the list walk (listings of fire-and-forget work) passes each registration still registered, once, and none once stopped")
    void forEachRegisteredPassesEachRegisteredNodeOnceAndNoneAfterStop() {
        InplaceStopSource source = new InplaceStopSource();
        dev.senders.internal.signal.StopNode.Host host = (dev.senders.internal.signal.StopNode.Host) source.token();
        StopCallback first = source.token().onStop(() -> { });
        StopCallback middle = source.token().onStop(() -> { });
        StopCallback newest = source.token().onStop(() -> { });
        java.util.List<Object> passed = new java.util.ArrayList<>();
        host.forEachRegistered(passed::add);
        assertEquals(java.util.List.of(newest, middle, first), passed, "newest first, each once");

        middle.close(); // not the head: stays linked, cancelled
        newest.close(); // the head: popped, its link cleared
        passed.clear();
        host.forEachRegistered(passed::add);
        assertEquals(java.util.List.of(first), passed, "deregistered ones are not passed");

        source.requestStop();
        passed.clear();
        host.forEachRegistered(passed::add);
        assertTrue(passed.isEmpty(), "nothing is registered once stop was requested");
    }
}
