package dev.senders.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Sender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Stop requests and interrupts (P3552R0 "Environment Support": stop forwarded to children). */
class TaskStopTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetDropped() {
        Hooks.resetOnErrorDropped();
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(10, TimeUnit.SECONDS), "hang guard");
    }

    @Test
    @DisplayName("P3552 get_stop_token: a stop request on the task's receiver reaches the awaited sender; the task completes stopped")
    void stopRequestOnTaskReceiver_reachesTheAwaitedSender() throws Exception {
        CountDownLatch awaiting = new CountDownLatch(1);
        AtomicInteger sawStop = new AtomicInteger();
        AtomicReference<Throwable> inFinally = new AtomicReference<>();
        AtomicBoolean tokenInFinally = new AtomicBoolean();
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            try {
                return ctx.await(TaskSenders.untilStopped(awaiting, sawStop));
            } catch (TaskStoppedException e) {
                inFinally.set(e);
                throw e;
            } finally {
                tokenInFinally.set(ctx.stopToken().stopRequested());
            }
        }));
        await(awaiting);
        assertEquals(0, sawStop.get());
        p.requestStop();
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(1, sawStop.get());
        assertInstanceOf(TaskStoppedException.class, inFinally.get());
        assertTrue(tokenInFinally.get(), "finally sees the task's stop token requested");
    }

    @Test
    @DisplayName("P3552 stop request: a body blocked in Thread.sleep is interrupted; InterruptedException escaping after stop completes stopped")
    void stopRequest_interruptsBodyBlockedInSleep() throws Exception {
        CountDownLatch sleeping = new CountDownLatch(1);
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            sleeping.countDown();
            Thread.sleep(TimeUnit.MINUTES.toMillis(10));
            return "slept";
        }));
        await(sleeping);
        p.requestStop();
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertTrue(dropped.isEmpty(), () -> "dropped: " + dropped);
    }

    @Test
    @DisplayName("P3552 stop request: a body blocked on a BlockingQueue is interrupted and decides the outcome itself")
    void stopRequest_interruptsBodyBlockedOnAQueue_bodyDecides() throws Exception {
        BlockingQueue<String> queue = new ArrayBlockingQueue<>(1);
        CountDownLatch taking = new CountDownLatch(1);
        TestReceiver<String> p = TestReceiver.start(Task.of(ctx -> {
            taking.countDown();
            try {
                return queue.take();
            } catch (InterruptedException e) {
                return "interrupted, stop requested: " + ctx.stopToken().stopRequested();
            }
        }));
        await(taking);
        p.requestStop();
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals("interrupted, stop requested: true", p.value());
    }

    @Test
    @DisplayName("P2300 stop requested before start: the body never runs, the task completes stopped")
    void stopRequestedBeforeStart_bodyDoesNotRun() {
        AtomicInteger runs = new AtomicInteger();
        TestReceiver<Integer> p = TestReceiver.withStopSource();
        OperationState op = Task.of(ctx -> runs.incrementAndGet()).connect(p);
        p.requestStop();
        op.start();
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(0, runs.get());
    }

    @Test
    @DisplayName("an interrupt of the task's thread while it awaits is a stop request on the task")
    void interruptWhileAwaiting_requestsStopOnTheTask() throws Exception {
        CountDownLatch awaiting = new CountDownLatch(1);
        AtomicInteger sawStop = new AtomicInteger();
        AtomicReference<Thread> taskThread = new AtomicReference<>();
        AtomicBoolean interruptStatusAfter = new AtomicBoolean();
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            taskThread.set(Thread.currentThread());
            try {
                return ctx.await(TaskSenders.untilStopped(awaiting, sawStop));
            } finally {
                interruptStatusAfter.set(Thread.currentThread().isInterrupted());
            }
        }));
        await(awaiting);
        taskThread.get().interrupt();
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(1, sawStop.get());
        assertTrue(interruptStatusAfter.get(), "the await preserves the interrupt status");
        assertFalse(p.stopSource().stopRequested(), "the receiver's own source is not touched");
    }

    @Test
    @DisplayName("structured: no interrupt outlives the body; a pooled thread is clean for its next job (race, 300 runs)")
    void noInterruptOutlivesTheBody_pooledThreadIsClean() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 300; i++) {
                int spin = ThreadLocalRandom.current().nextInt(2000);
                TestReceiver<Integer> p = TestReceiver.start(Task.of(single, ctx -> {
                    int x = 0;
                    for (int k = 0; k < spin; k++) {
                        x += ctx.await(dev.senders.Senders.just(k)) & 1;
                    }
                    return x;
                }));
                p.requestStop();
                assertTrue(p.await(10, TimeUnit.SECONDS), "hang guard");
                assertEquals(1, p.completions());
                Future<Boolean> next = single.submit(() -> Thread.currentThread().isInterrupted());
                assertFalse(next.get(10, TimeUnit.SECONDS), "run " + i + ": interrupt leaked to the next job");
            }
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    @DisplayName("P2300 exactly one completion when stop races with the awaited sender's completion on another thread (500 runs)")
    void stopRacingCompletion_exactlyOneCompletion() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 500; i++) {
                CountDownLatch started = new CountDownLatch(1);
                Sender<Integer> racer = r -> () -> {
                    AtomicBoolean once = new AtomicBoolean();
                    r.env().stopToken().onStop(() -> {
                        if (once.compareAndSet(false, true)) {
                            r.setStopped();
                        }
                    });
                    pool.execute(() -> {
                        if (once.compareAndSet(false, true)) {
                            r.setValue(1);
                        }
                    });
                    started.countDown();
                };
                TestReceiver<Integer> p = TestReceiver.start(Task.of(ctx -> ctx.await(racer)));
                await(started);
                p.requestStop();
                assertTrue(p.await(10, TimeUnit.SECONDS), "hang guard");
                assertTrue(p.kind() == TestReceiver.Kind.VALUE || p.kind() == TestReceiver.Kind.STOPPED, String.valueOf(p.kind()));
                assertEquals(1, p.completions());
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(dropped.isEmpty(), () -> "dropped: " + dropped);
    }
}
