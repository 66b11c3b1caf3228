package dev.senders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("syncWait never waits forever: deadlines, interrupts, and threads that must not block")
class SyncWaitDeadlineTest {

    @AfterEach
    void reset() {
        Thread.interrupted();
        Hooks.resetOnErrorDropped();
        Hooks.resetNonBlockingThreadPredicates();
    }

    /** A sender that completes with {@code onStop} from its stop callback. */
    private static <T> Sender<T> completesOnStop(T value) {
        return r -> () -> r.env().stopToken().onStop(() -> r.setValue(value));
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the waiter never parked");
            Thread.sleep(1);
        }
    }

    @Test
    @DisplayName("an interrupted syncWait frees its thread: stop is requested and CancellationException(InterruptedException) thrown")
    void interruptedSyncWait_freesItsThread() throws Exception {
        ManualSender<Integer> work = new ManualSender<>(false); // sees the stop request, never completes on it
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                Senders.syncWait(work);
            } catch (Throwable t) {
                thrown.set(t);
            }
            flag.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        awaitParked(waiter);
        waiter.interrupt();
        waiter.join(10_000);
        assertFalse(waiter.isAlive(), "the thread was freed although the work never completed");
        assertTrue(thrown.get() instanceof CancellationException, () -> "thrown: " + thrown.get());
        assertTrue(thrown.get().getCause() instanceof InterruptedException);
        assertTrue(flag.get(), "the interrupt status is restored");
        assertEquals(1, work.stopsSeen(), "stop was requested on the awaited work");

        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        IllegalStateException late = new IllegalStateException("late");
        work.fail(late);
        assertEquals(List.of(late), dropped, "a late error of abandoned work is not lost");
    }

    @Test
    @DisplayName("an interrupt while waiting: work that completes during the stop request reports its value")
    void interrupt_valueDuringStopRequest_returned() throws Exception {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread waiter = new Thread(() -> result.set(Senders.syncWait(completesOnStop(42))));
        waiter.start();
        awaitParked(waiter);
        waiter.interrupt();
        waiter.join(10_000);
        assertEquals(42, result.get());
    }

    @Test
    @DisplayName("already interrupted: syncWait(join) of a scope with running work throws at once, without waiting")
    void alreadyInterrupted_joinWithWork_throwsWithoutWaiting() {
        CountingScope scope = new CountingScope("busy");
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        scope.close();
        Thread.currentThread().interrupt();
        CancellationException e = assertThrows(CancellationException.class, () -> Senders.syncWait(scope.join()));
        assertTrue(e.getCause() instanceof InterruptedException);
        assertTrue(Thread.interrupted());
        work.complete(null); // the abandoned join completes later into nothing
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("already interrupted: work that completes during start is reported, the interrupt status kept")
    void alreadyInterrupted_synchronousWork_reported() {
        CountingScope scope = new CountingScope();
        Scopes.spawn(Senders.just(), scope.getToken());
        scope.close();
        Thread.currentThread().interrupt();
        Senders.syncWait(scope.join());           // count is zero: the join completes inline
        assertEquals(7, Senders.syncWait(Senders.just(7)));
        assertTrue(Thread.interrupted());
    }

    @Test
    @DisplayName("a deadline passes: stop is requested, TimeoutException thrown, the thread freed")
    void deadlinePasses_timeoutException() {
        ManualSender<Integer> work = new ManualSender<>(false);
        long t0 = System.nanoTime();
        TimeoutException e = assertThrows(TimeoutException.class,
                () -> Senders.syncWait(work, Duration.ofMillis(50)));
        assertTrue(System.nanoTime() - t0 >= 50_000_000L);
        assertEquals(1, work.stopsSeen());
        assertTrue(e.getMessage().contains("within 50 ms"), e.getMessage());
        work.complete(1); // late value: discarded, no protocol violation reported
    }

    @Test
    @DisplayName("a deadline passes and the work stops at the request: still a TimeoutException")
    void deadline_workStops_timeoutException() {
        ManualSender<Integer> work = new ManualSender<>(true);
        assertThrows(TimeoutException.class, () -> Senders.syncWait(work, Duration.ofMillis(20)));
        assertEquals(1, work.stopsSeen());
    }

    @Test
    @DisplayName("a deadline passes and the work completes with a value during the stop request: the value is returned")
    void deadline_valueDuringStopRequest_returned() throws TimeoutException {
        assertEquals("v", Senders.syncWait(completesOnStop("v"), Duration.ofMillis(20)));
    }

    @Test
    @DisplayName("work that completes before the deadline is reported as syncWait(sender) would")
    void beforeDeadline_reportedNormally() throws Exception {
        assertEquals(3, (int) Senders.syncWait(Senders.just(3), Duration.ZERO));
        assertThrows(CancellationException.class, () -> Senders.syncWait(Senders.justStopped(), Duration.ofSeconds(1)));
        Scheduler pool = Schedulers.fromExecutor(Runnable::run);
        assertEquals(4, (int) Senders.syncWait(Senders.schedule(pool).then(v -> 4), Duration.ofSeconds(10)));
        assertEquals(5, (int) Senders.syncWait(Senders.just(5), Duration.ofSeconds(Long.MAX_VALUE)));
    }

    @Test
    @DisplayName("work scheduled on the run loop after syncWait gave up completes stopped instead of hanging")
    void abandonedRunLoop_completesScheduledWorkStopped() {
        AtomicReference<Scheduler> loop = new AtomicReference<>();
        Sender<Object> grabLoop = r -> () -> loop.set(r.env().scheduler().orElseThrow());
        assertThrows(TimeoutException.class, () -> Senders.syncWait(grabLoop, Duration.ofMillis(10)));
        TestReceiver<Void> later = TestReceiver.start(loop.get().schedule());
        assertEquals(TestReceiver.Kind.STOPPED, later.kind());
    }

    @Test
    @DisplayName("syncWait on a thread marked non-blocking throws IllegalStateException naming the thread, before starting anything")
    void nonBlockingThread_syncWaitThrows() throws Exception {
        Hooks.addNonBlockingThreadPredicate(t -> t.getName().startsWith("my-event-loop"));
        ManualSender<Integer> work = new ManualSender<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                Senders.syncWait(work);
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "my-event-loop-1");
        t.start();
        t.join(10_000);
        assertTrue(thrown.get() instanceof IllegalStateException, () -> "thrown: " + thrown.get());
        assertTrue(thrown.get().getMessage().contains("not supported in thread my-event-loop-1"), thrown.get().getMessage());
        assertEquals(0, work.starts(), "nothing was started");
        assertFalse(Hooks.isNonBlockingThread(Thread.currentThread()));
    }

    @Test
    @DisplayName("Netty event-loop threads (FastThreadLocalThread without permitBlockingCalls) and RxJava NonBlockingThread markers are recognised by name")
    void nettyAndRxJavaMarkers_recognisedByName() throws Exception {
        AtomicReference<Boolean> netty = new AtomicReference<>();
        Thread n = new FastThreadLocalThread(() -> netty.set(Hooks.isNonBlockingThread(Thread.currentThread())));
        n.start();
        n.join();
        assertTrue(netty.get());
        Thread blockingNetty = new FastThreadLocalThread(() -> { }) {
            @Override
            public boolean permitBlockingCalls() {
                return true;
            }
        };
        assertFalse(Hooks.isNonBlockingThread(blockingNetty));
        class RxComputationThread extends Thread implements io.reactivex.rxjava3.internal.schedulers.NonBlockingThread { }
        assertTrue(Hooks.isNonBlockingThread(new RxComputationThread()));
    }

    @Test
    @DisplayName("the library's timer thread must not block: syncWait there throws")
    void timerThread_isNonBlocking() {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Sender<Void> onTimerThread = Senders.timeout(r -> () -> r.env().stopToken().onStop(() -> {
            try {
                Senders.syncWait(Senders.just());
            } catch (Throwable e) {
                thrown.set(e);
            }
            r.setStopped();
        }), Duration.ofMillis(500)); // long enough that start() has registered before the timer fires, even under load
        assertThrows(java.util.concurrent.CompletionException.class, () -> Senders.syncWait(onTimerThread));
        assertNotNull(thrown.get());
        assertTrue(thrown.get() instanceof IllegalStateException);
        assertTrue(thrown.get().getMessage().contains("senders-timer"), thrown.get().getMessage());
    }

    @Test
    @DisplayName("null arguments are rejected")
    void nulls() {
        assertThrows(NullPointerException.class, () -> Senders.syncWait(null, Duration.ZERO));
        assertThrows(NullPointerException.class, () -> Senders.syncWait(Senders.just(), null));
        assertThrows(NullPointerException.class, () -> Hooks.isNonBlockingThread(null));
        assertThrows(NullPointerException.class, () -> Hooks.addNonBlockingThreadPredicate(null));
        assertSame(null, Senders.syncWait(Senders.just()));
    }
}
