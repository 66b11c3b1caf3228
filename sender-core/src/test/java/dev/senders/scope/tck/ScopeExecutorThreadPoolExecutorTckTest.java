package dev.senders.scope.tck;

import static dev.senders.scope.tck.ViewUnderTest.LONG_DELAY_MS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import dev.senders.scope.tck.ViewUnderTest.Kind;
import dev.senders.scope.tck.ViewUnderTest.NoOpRunnable;
import dev.senders.scope.tck.ViewUnderTest.StringTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code ExecutorService} contract parts of the JSR-166 TCK's {@code ThreadPoolExecutorTest}
 * (OpenJDK {@code test/jdk/java/util/concurrent/tck/ThreadPoolExecutorTest.java}), ported to
 * JUnit 5 and run over {@code ScopeExecutor} views of a direct executor, a bounded thread pool
 * and a cached pool; the saturation tests run over a saturated {@link ThreadPoolExecutor} with
 * each of its rejection policies. The TCK was written by Doug Lea with assistance from members of
 * JCP JSR-166 Expert Group and released to the public domain (CC0), as explained at
 * http://creativecommons.org/publicdomain/zero/1.0/. Test names are the TCK's; the tests of
 * {@code ThreadPoolExecutor}'s own API (pool sizes, thread factories, hooks, counters) have no
 * counterpart on the view and are left out; elapsed-time assertions are left out.
 */
@DisplayName("ScopeExecutor passes the ExecutorService parts of the JSR-166 TCK's ThreadPoolExecutorTest")
class ScopeExecutorThreadPoolExecutorTckTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("execute successfully executes a runnable")
    void testExecute(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch done = new CountDownLatch(1);
            v.view.execute(done::countDown);
            ViewUnderTest.await(done);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("isShutdown is false before shutdown, true after")
    void testIsShutdown(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertFalse(v.view.isShutdown());
            v.view.shutdown();
            assertTrue(v.view.isShutdown());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("awaitTermination on a non-shutdown view times out, at once for a timeout of zero or less")
    void testAwaitTermination_timesOut(Kind kind) throws InterruptedException {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertFalse(v.view.isTerminated());
            assertFalse(v.view.awaitTermination(Long.MIN_VALUE, NANOSECONDS));
            assertFalse(v.view.awaitTermination(Long.MIN_VALUE, MILLISECONDS));
            assertFalse(v.view.awaitTermination(-1L, NANOSECONDS));
            assertFalse(v.view.awaitTermination(-1L, MILLISECONDS));
            assertFalse(v.view.awaitTermination(0L, NANOSECONDS));
            assertFalse(v.view.awaitTermination(0L, MILLISECONDS));
            assertFalse(v.view.awaitTermination(20, MILLISECONDS));
            assertFalse(v.view.isTerminated());
            v.shutdownAndAwaitTermination();
            assertTrue(v.view.isTerminated());
            assertTrue(v.view.awaitTermination(Long.MIN_VALUE, NANOSECONDS), "terminated: true whatever the timeout");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("awaitTermination with a timeout of zero or less on a shut-down view with a running task returns false at once")
    void testAwaitTermination_timesOutWhileShutDown(Kind kind) throws InterruptedException {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            v.view.submit(ViewUnderTest.blocker(started, done));
            ViewUnderTest.await(started);
            v.view.shutdown();
            assertFalse(v.view.awaitTermination(Long.MIN_VALUE, NANOSECONDS));
            assertFalse(v.view.awaitTermination(Long.MIN_VALUE, TimeUnit.DAYS));
            assertFalse(v.view.awaitTermination(0L, MILLISECONDS));
            assertFalse(v.view.awaitTermination(20, MILLISECONDS));
            assertFalse(v.view.isTerminated());
            done.countDown();
            assertTrue(v.view.awaitTermination(Long.MAX_VALUE, NANOSECONDS));
            assertTrue(v.view.isTerminated());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("isTerminated is false before termination, true after")
    void testIsTerminated(Kind kind) throws InterruptedException {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            assertFalse(v.view.isTerminated());
            v.view.execute(() -> {
                started.countDown();
                ViewUnderTest.await(done);
            });
            ViewUnderTest.await(started);
            assertFalse(v.view.isTerminated());
            v.view.shutdown();
            assertFalse(v.view.isTerminated(), "a task still runs");
            done.countDown();
            assertTrue(v.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
            assertTrue(v.view.isTerminated());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("shutdownNow returns the tasks that never started, interrupts the running ones, and the view terminates")
    void testShutdownNow(Kind kind) throws InterruptedException {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            int count = 5;
            int running = v.runsAtOnce(count);
            CountDownLatch started = new CountDownLatch(running);
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger interrupted = new AtomicInteger();
            List<Runnable> submitted = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Runnable task = () -> {
                    ran.incrementAndGet();
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException expected) {
                        interrupted.incrementAndGet();
                    }
                };
                submitted.add(task);
                v.view.execute(task);
            }
            ViewUnderTest.await(started);
            List<Runnable> queued = v.view.shutdownNow();
            assertEquals(count - running, queued.size());
            assertTrue(submitted.containsAll(queued), "the tasks are returned as they were given to execute");
            assertTrue(v.view.isShutdown());
            assertTrue(v.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
            assertTrue(v.view.isTerminated());
            assertEquals(running, ran.get());
            assertEquals(running, interrupted.get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("execute, submit, invokeAll and invokeAny throw RejectedExecutionException after shutdown")
    void testRejectedExecutionExceptionOnShutdown(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            v.view.shutdown();
            assertThrows(RejectedExecutionException.class, () -> v.view.execute(new NoOpRunnable()));
            assertThrows(RejectedExecutionException.class, () -> v.view.submit(new StringTask()));
            assertThrows(RejectedExecutionException.class, () -> v.view.invokeAll(List.of(new StringTask())));
            assertThrows(RejectedExecutionException.class,
                    () -> v.view.invokeAll(List.of(new StringTask()), LONG_DELAY_MS, MILLISECONDS));
            assertThrows(RejectedExecutionException.class, () -> v.view.invokeAny(List.of(new StringTask())));
            assertThrows(RejectedExecutionException.class,
                    () -> v.view.invokeAny(List.of(new StringTask()), LONG_DELAY_MS, MILLISECONDS));
            assertEquals(0, v.scope.count());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("execute, submit, invokeAll and invokeAny throw RejectedExecutionException after shutdownNow")
    void testRejectedExecutionExceptionOnShutdownNow(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            v.view.shutdownNow();
            assertThrows(RejectedExecutionException.class, () -> v.view.execute(new NoOpRunnable()));
            assertThrows(RejectedExecutionException.class, () -> v.view.submit(new StringTask()));
            assertThrows(RejectedExecutionException.class, () -> v.view.invokeAll(List.of(new StringTask())));
            assertThrows(RejectedExecutionException.class, () -> v.view.invokeAny(List.of(new StringTask())));
            assertEquals(0, v.scope.count());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("execute(null) throws NullPointerException")
    void testExecuteNull(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertThrows(NullPointerException.class, () -> v.view.execute(null));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("get of cancelled tasks throws CancellationException; a queued task cancelled is released at once")
    void testGet_cancelled(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch done = new CountDownLatch(1);
            CountDownLatch blockerStarted = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                futures.add(v.view.submit(ViewUnderTest.blocker(blockerStarted, done)));
            }
            ViewUnderTest.await(blockerStarted);
            for (Future<?> future : futures) {
                future.cancel(false);
            }
            for (Future<?> future : futures) {
                assertThrows(CancellationException.class, future::get);
                assertThrows(CancellationException.class, () -> future.get(LONG_DELAY_MS, MILLISECONDS));
                assertTrue(future.isCancelled());
                assertTrue(future.isDone());
            }
            done.countDown();
            v.shutdownAndAwaitTermination();
        }
    }

    /** A pool of one thread and a queue of one, busy with a blocker, with the queue filled. */
    private static final class Saturated implements AutoCloseable {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final ThreadPoolExecutor pool;
        final CountingScope scope = new CountingScope("saturated");
        final ScopeExecutor view;
        final AtomicInteger queuedRan = new AtomicInteger();
        final Runnable queued = queuedRan::incrementAndGet;

        Saturated(RejectedExecutionHandler policy) {
            pool = new ThreadPoolExecutor(1, 1, LONG_DELAY_MS, MILLISECONDS, new ArrayBlockingQueue<>(1), policy);
            view = ScopeExecutor.of(pool, scope);
            view.submit(ViewUnderTest.blocker(started, done));
            ViewUnderTest.await(started);
            view.execute(queued);
        }

        @Override
        public void close() {
            done.countDown();
            view.shutdownNow();
            pool.shutdownNow();
            try {
                assertTrue(pool.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError("interrupted while closing the pool", e);
            }
        }
    }

    @Test
    @DisplayName("a saturated executor with the AbortPolicy: its rejection reaches the submitter and the task is not counted")
    void testSaturatedExecute() throws InterruptedException {
        try (Saturated s = new Saturated(new ThreadPoolExecutor.AbortPolicy())) {
            for (int i = 0; i < 2; i++) {
                assertThrows(RejectedExecutionException.class, () -> s.view.execute(new NoOpRunnable()));
                assertThrows(RejectedExecutionException.class, () -> s.view.submit(new StringTask()));
            }
            assertEquals(2, s.scope.count(), "the running and the queued task only");
            s.done.countDown();
            s.view.shutdown();
            assertTrue(s.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
            assertEquals(1, s.queuedRan.get());
        }
    }

    @Test
    @DisplayName("a saturated executor with the CallerRunsPolicy: the submitting thread runs the task")
    void testSaturatedExecute2() throws InterruptedException {
        try (Saturated s = new Saturated(new ThreadPoolExecutor.CallerRunsPolicy())) {
            Thread[] ranOn = new Thread[1];
            s.view.execute(() -> ranOn[0] = Thread.currentThread());
            assertSame(Thread.currentThread(), ranOn[0]);
            assertEquals(2, s.scope.count(), "the caller-run task was released when it returned");
        }
    }

    @Test
    @DisplayName("a saturated executor with the DiscardPolicy: the dropped task stays counted until shutdownNow, which returns it")
    void testSaturatedExecute3() throws InterruptedException {
        try (Saturated s = new Saturated(new ThreadPoolExecutor.DiscardPolicy())) {
            AtomicInteger ran = new AtomicInteger();
            Runnable dropped = ran::incrementAndGet;
            s.view.execute(dropped);
            assertEquals(3, s.scope.count());
            s.done.countDown();
            s.view.shutdown();
            assertFalse(s.view.awaitTermination(50, MILLISECONDS), "the view cannot see that the executor dropped it");
            List<Runnable> neverStarted = s.view.shutdownNow();
            assertTrue(neverStarted.contains(dropped), "shutdownNow returns the dropped task");
            assertTrue(s.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
            assertEquals(0, ran.get());
        }
    }

    @Test
    @DisplayName("a saturated executor with the DiscardOldestPolicy: the dropped oldest task stays counted until shutdownNow, which returns it")
    void testSaturatedExecute4() throws InterruptedException {
        try (Saturated s = new Saturated(new ThreadPoolExecutor.DiscardOldestPolicy())) {
            AtomicInteger ran = new AtomicInteger();
            s.view.execute(ran::incrementAndGet); // drops s.queued
            assertEquals(3, s.scope.count());
            s.done.countDown();
            s.view.shutdown();
            assertFalse(s.view.awaitTermination(50, MILLISECONDS), "the view cannot see that the executor dropped it");
            List<Runnable> neverStarted = s.view.shutdownNow();
            assertEquals(List.of(s.queued), neverStarted, "shutdownNow returns the dropped task");
            assertTrue(s.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
            assertEquals(1, ran.get(), "the newest task ran");
            assertEquals(0, s.queuedRan.get());
        }
    }
}
