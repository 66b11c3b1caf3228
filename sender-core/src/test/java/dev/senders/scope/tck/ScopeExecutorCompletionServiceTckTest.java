package dev.senders.scope.tck;

import static dev.senders.scope.tck.ViewUnderTest.LONG_DELAY_MS;
import static dev.senders.scope.tck.ViewUnderTest.TEST_STRING;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.tck.ViewUnderTest.Kind;
import dev.senders.scope.tck.ViewUnderTest.NoOpRunnable;
import dev.senders.scope.tck.ViewUnderTest.StringTask;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JSR-166 TCK's {@code ExecutorCompletionServiceTest} (OpenJDK
 * {@code test/jdk/java/util/concurrent/tck/ExecutorCompletionServiceTest.java}), ported to JUnit
 * 5 with the completion service over {@code ScopeExecutor} views of a direct executor, a bounded
 * thread pool and a cached pool. The TCK was written by Doug Lea with assistance from members of
 * JCP JSR-166 Expert Group and released to the public domain (CC0), as explained at
 * http://creativecommons.org/publicdomain/zero/1.0/. Test names are the TCK's; the two
 * {@code testNewTaskFor} tests, about a {@code ThreadPoolExecutor} subclass's own futures, have
 * their counterpart in {@code testTakeReturnsTheViewsFuture}; elapsed-time assertions are left
 * out; the cancellation tests are the view's own.
 */
@DisplayName("ScopeExecutor passes the JSR-166 TCK's ExecutorCompletionServiceTest")
class ScopeExecutorCompletionServiceTckTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("new ExecutorCompletionService(view, null) throws NullPointerException")
    void testConstructorNPE2(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertThrows(NullPointerException.class, () -> new ExecutorCompletionService<>(v.view, null));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("ecs.submit(null) and ecs.submit(null, val) throw NullPointerException")
    void testSubmitNullCallable(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<Object> cs = new ExecutorCompletionService<>(v.view);
            assertThrows(NullPointerException.class, () -> cs.submit((Callable<Object>) null));
            assertThrows(NullPointerException.class, () -> cs.submit((Runnable) null, Boolean.TRUE));
            assertEquals(0, v.scope.count());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("a taken submitted task is completed")
    void testTake(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            cs.submit(new StringTask());
            Future<String> f = cs.take();
            assertTrue(f.isDone());
            assertSame(TEST_STRING, f.get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("take returns the same future object returned by submit")
    void testTake2(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            Future<String> f1 = cs.submit(new StringTask());
            assertSame(f1, cs.take());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed poll returns the completed task")
    void testPoll2(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            assertNull(cs.poll());
            cs.submit(new StringTask());
            Future<String> f = cs.poll(LONG_DELAY_MS, MILLISECONDS);
            assertTrue(f != null && f.isDone());
            assertSame(TEST_STRING, f.get());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("poll returns null before the returned task is completed")
    void testPollReturnsNullBeforeCompletion(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch proceed = new CountDownLatch(1);
            cs.submit(ViewUnderTest.blocker(started, proceed));
            assertNull(cs.poll());
            assertNull(cs.poll(0L, MILLISECONDS));
            assertNull(cs.poll(Long.MIN_VALUE, MILLISECONDS));
            assertNull(cs.poll(20, MILLISECONDS));
            proceed.countDown();
            assertSame(TEST_STRING, cs.take().get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("successful and failed tasks are both returned")
    void testTaskAssortment(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            ArithmeticException ex = new ArithmeticException();
            int rounds = 2;
            for (int i = rounds; i-- > 0; ) {
                cs.submit(new StringTask());
                cs.submit(() -> {
                    throw ex;
                });
                cs.submit(() -> {
                    throw ex;
                }, null);
            }
            int normalCompletions = 0;
            int exceptionalCompletions = 0;
            for (int i = 3 * rounds; i-- > 0; ) {
                try {
                    assertSame(TEST_STRING, cs.take().get());
                    normalCompletions++;
                } catch (ExecutionException expected) {
                    assertSame(ex, expected.getCause());
                    exceptionalCompletions++;
                }
            }
            assertEquals(rounds, normalCompletions);
            assertEquals(2 * rounds, exceptionalCompletions);
            assertNull(cs.poll());
            assertTrue(v.errors.isEmpty(), "the futures keep their tasks' exceptions");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("submitting to the view returns, and eventually runs and queues, the view's own future (its newTaskFor)")
    void testTakeReturnsTheViewsFuture(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            Future<String> f1 = cs.submit(new NoOpRunnable(), TEST_STRING);
            assertSame(f1, cs.take(), "submit and take return the same object");
            assertSame(TEST_STRING, f1.get());
        }
    }

    @Test
    @DisplayName("a completion service's future cancelled while queued: released at once, and queued cancelled")
    void testCancelledBeforeItRanIsReleasedAndQueued() throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(Kind.BOUNDED_POOL)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            int blockers = ViewUnderTest.BOUNDED_THREADS; // keep the pool's threads busy: the next task stays queued
            CountDownLatch busy = new CountDownLatch(blockers);
            CountDownLatch release = new CountDownLatch(1);
            for (int i = 0; i < blockers; i++) {
                v.view.submit(ViewUnderTest.blocker(busy, release));
            }
            ViewUnderTest.await(busy);
            Future<String> f = cs.submit(new StringTask());
            assertEquals(blockers + 1, v.scope.count());
            assertTrue(f.cancel(false));
            assertEquals(blockers, v.scope.count(), "released at once, not when the pool gets to it");
            assertSame(f, cs.poll(LONG_DELAY_MS, MILLISECONDS), "the cancelled future is queued");
            assertThrows(CancellationException.class, f::get);
            release.countDown();
            v.shutdownAndAwaitTermination();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("shutdownNow cancels a completion service's tasks that never started: take() returns them cancelled")
    void testShutdownNowCancelsQueuedFutures(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CompletionService<String> cs = new ExecutorCompletionService<>(v.view);
            int count = 4;
            int running = v.runsAtOnce(count);
            CountDownLatch started = new CountDownLatch(running);
            CountDownLatch never = new CountDownLatch(1);
            for (int i = 0; i < count; i++) {
                cs.submit(ViewUnderTest.blocker(started, never));
            }
            ViewUnderTest.await(started);
            assertEquals(count - running, v.view.shutdownNow().size());
            for (int i = 0; i < count; i++) {
                Future<String> f = cs.poll(LONG_DELAY_MS, MILLISECONDS);
                assertTrue(f != null, "every future is queued: the running ones interrupted, the others cancelled");
                assertThrows(Exception.class, f::get);
            }
            assertTrue(v.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
        }
    }
}
