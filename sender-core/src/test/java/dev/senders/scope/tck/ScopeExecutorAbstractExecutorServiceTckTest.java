package dev.senders.scope.tck;

import static dev.senders.scope.tck.ViewUnderTest.LONG_DELAY_MS;
import static dev.senders.scope.tck.ViewUnderTest.TEST_STRING;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.tck.ViewUnderTest.Kind;
import dev.senders.scope.tck.ViewUnderTest.NPETask;
import dev.senders.scope.tck.ViewUnderTest.NoOpRunnable;
import dev.senders.scope.tck.ViewUnderTest.StringTask;
import java.security.PrivilegedAction;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JSR-166 TCK's {@code AbstractExecutorServiceTest} (OpenJDK
 * {@code test/jdk/java/util/concurrent/tck/AbstractExecutorServiceTest.java}), ported to JUnit 5
 * and run over {@code ScopeExecutor} views of a direct executor, a bounded thread pool and a
 * cached pool. The TCK was written by Doug Lea with assistance from members of JCP JSR-166 Expert
 * Group (other contributors include Andrew Wright, Jeffrey Hayes, Pat Fisher, Mike Judd) and
 * released to the public domain (CC0), as explained at
 * http://creativecommons.org/publicdomain/zero/1.0/. The test names are the TCK's; the tests that
 * block a task run over the threaded executors only; those that measured elapsed times assert
 * the outcome instead.
 */
@DisplayName("ScopeExecutor passes the JSR-166 TCK's AbstractExecutorServiceTest")
class ScopeExecutorAbstractExecutorServiceTckTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("execute(runnable) runs it to completion")
    void testExecuteRunnable(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            AtomicBoolean done = new AtomicBoolean(false);
            Future<?> future = v.view.submit(() -> done.set(true));
            assertNull(future.get());
            assertNull(future.get(0, MILLISECONDS));
            assertTrue(done.get());
            assertTrue(future.isDone());
            assertFalse(future.isCancelled());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("completed submit(callable) returns its result")
    void testSubmitCallable(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertSame(TEST_STRING, v.view.submit(new StringTask()).get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("completed submit(runnable) returns successfully")
    void testSubmitRunnable(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Future<?> future = v.view.submit(new NoOpRunnable());
            future.get();
            assertTrue(future.isDone());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("completed submit(runnable, result) returns the result")
    void testSubmitRunnable2(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertSame(TEST_STRING, v.view.submit(new NoOpRunnable(), TEST_STRING).get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("a submitted privileged action runs to completion")
    void testSubmitPrivilegedAction(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Future<?> future = v.view.submit(Executors.callable((PrivilegedAction<Object>) () -> TEST_STRING));
            assertSame(TEST_STRING, future.get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("a submitted privileged exception action runs to completion")
    void testSubmitPrivilegedExceptionAction(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Future<?> future = v.view.submit(Executors.callable((PrivilegedExceptionAction<Object>) () -> TEST_STRING));
            assertSame(TEST_STRING, future.get());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("a submitted failed privileged exception action reports its exception")
    void testSubmitFailedPrivilegedExceptionAction(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Future<?> future = v.view.submit(Executors.callable((PrivilegedExceptionAction<Object>) () -> {
                throw new IndexOutOfBoundsException();
            }));
            ExecutionException e = assertThrows(ExecutionException.class, future::get);
            assertInstanceOf(IndexOutOfBoundsException.class, e.getCause());
            assertTrue(v.errors.isEmpty(), "the future keeps its task's exception");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("submitting null tasks throws NullPointerException")
    void testNullTaskSubmission(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            ExecutorService e = v.view;
            assertThrows(NullPointerException.class, () -> e.execute(null));
            assertThrows(NullPointerException.class, () -> e.submit((Runnable) null));
            assertThrows(NullPointerException.class, () -> e.submit((Runnable) null, Boolean.TRUE));
            assertThrows(NullPointerException.class, () -> e.submit((Callable<?>) null));
            assertEquals(0, v.scope.count(), "nothing was associated");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("submit(callable).get() throws InterruptedException if interrupted")
    void testInterruptedSubmit(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch quittingTime = new CountDownLatch(1);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread t = ViewUnderTest.onAnotherThread(() -> v.view.submit(ViewUnderTest.blocker(started, quittingTime)).get(),
                    outcome);
            ViewUnderTest.await(started);
            t.interrupt();
            t.join(LONG_DELAY_MS);
            assertFalse(t.isAlive());
            assertInstanceOf(InterruptedException.class, outcome.get());
            quittingTime.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("get of submit(callable) throws ExecutionException if the callable throws")
    void testSubmitEE(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Callable<Object> c = () -> {
                throw new ArithmeticException();
            };
            ExecutionException e = assertThrows(ExecutionException.class, () -> v.view.submit(c).get());
            assertInstanceOf(ArithmeticException.class, e.getCause());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAny(null) throws NullPointerException")
    void testInvokeAny1(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertThrows(NullPointerException.class, () -> v.view.invokeAny(null));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAny(empty collection) throws IllegalArgumentException")
    void testInvokeAny2(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Collection<Callable<String>> empty = Collections.emptyList();
            assertThrows(IllegalArgumentException.class, () -> v.view.invokeAny(empty));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAny(c) throws NullPointerException if c has null elements")
    void testInvokeAny3(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<Long>> l = new ArrayList<>();
            l.add(() -> {
                throw new ArithmeticException();
            });
            l.add(null);
            assertThrows(NullPointerException.class, () -> v.view.invokeAny(l));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAny(c) throws ExecutionException if no task in c completes")
    void testInvokeAny4(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<String>> l = List.of(new NPETask());
            ExecutionException e = assertThrows(ExecutionException.class, () -> v.view.invokeAny(l));
            assertInstanceOf(NullPointerException.class, e.getCause());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAny(c) returns the result of some task in c if at least one completes")
    void testInvokeAny5(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertSame(TEST_STRING, v.view.invokeAny(List.of(new StringTask(), new StringTask())));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAll(null) throws NullPointerException")
    void testInvokeAll1(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertThrows(NullPointerException.class, () -> v.view.invokeAll(null));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAll(empty collection) returns an empty list")
    void testInvokeAll2(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Collection<Callable<String>> empty = Collections.emptyList();
            assertTrue(v.view.invokeAll(empty).isEmpty());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAll(c) throws NullPointerException if c has null elements, and cancels what it submitted")
    void testInvokeAll3(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<String>> l = new ArrayList<>();
            l.add(new StringTask());
            l.add(null);
            assertThrows(NullPointerException.class, () -> v.view.invokeAll(l));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("get of a returned element of invokeAll(c) throws the failed task's exception")
    void testInvokeAll4(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Future<String>> futures = v.view.invokeAll(List.of(new NPETask()));
            assertEquals(1, futures.size());
            ExecutionException e = assertThrows(ExecutionException.class, () -> futures.get(0).get());
            assertInstanceOf(NullPointerException.class, e.getCause());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("invokeAll(c) returns the results of all completed tasks in c")
    void testInvokeAll5(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Future<String>> futures = v.view.invokeAll(List.of(new StringTask(), new StringTask()));
            assertEquals(2, futures.size());
            for (Future<String> future : futures) {
                assertSame(TEST_STRING, future.get());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAny(null) throws NullPointerException")
    void testTimedInvokeAny1(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertThrows(NullPointerException.class, () -> v.view.invokeAny(null, LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAny(null time unit) throws NullPointerException")
    void testTimedInvokeAnyNullTimeUnit(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<String>> l = List.of(new StringTask());
            assertThrows(NullPointerException.class, () -> v.view.invokeAny(l, LONG_DELAY_MS, null));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAny(empty collection) throws IllegalArgumentException")
    void testTimedInvokeAny2(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Collection<Callable<String>> empty = Collections.emptyList();
            assertThrows(IllegalArgumentException.class, () -> v.view.invokeAny(empty, LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAny(c) throws NullPointerException if c has null elements")
    void testTimedInvokeAny3(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<Long>> l = new ArrayList<>();
            l.add(() -> {
                throw new ArithmeticException();
            });
            l.add(null);
            assertThrows(NullPointerException.class, () -> v.view.invokeAny(l, LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAny(c) throws ExecutionException if no task completes")
    void testTimedInvokeAny4(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<String>> l = List.of(new NPETask());
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> v.view.invokeAny(l, LONG_DELAY_MS, MILLISECONDS));
            assertInstanceOf(NullPointerException.class, e.getCause());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAny(c) returns the result of some task in c")
    void testTimedInvokeAny5(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertSame(TEST_STRING,
                    v.view.invokeAny(List.of(new StringTask(), new StringTask()), LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAll(null) throws NullPointerException")
    void testTimedInvokeAll1(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            assertThrows(NullPointerException.class, () -> v.view.invokeAll(null, LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAll(null time unit) throws NullPointerException")
    void testTimedInvokeAllNullTimeUnit(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<String>> l = List.of(new StringTask());
            assertThrows(NullPointerException.class, () -> v.view.invokeAll(l, LONG_DELAY_MS, null));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAll(empty collection) returns an empty list")
    void testTimedInvokeAll2(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Collection<Callable<String>> empty = Collections.emptyList();
            assertTrue(v.view.invokeAll(empty, LONG_DELAY_MS, MILLISECONDS).isEmpty());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAll(c) throws NullPointerException if c has null elements")
    void testTimedInvokeAll3(Kind kind) {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Callable<String>> l = new ArrayList<>();
            l.add(new StringTask());
            l.add(null);
            assertThrows(NullPointerException.class, () -> v.view.invokeAll(l, LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("get of a returned element of timed invokeAll(c) throws the failed task's exception")
    void testTimedInvokeAll4(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Future<String>> futures = v.view.invokeAll(List.of(new NPETask()), LONG_DELAY_MS, MILLISECONDS);
            assertEquals(1, futures.size());
            ExecutionException e = assertThrows(ExecutionException.class, () -> futures.get(0).get());
            assertInstanceOf(NullPointerException.class, e.getCause());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("timed invokeAll(c) returns the results of all completed tasks in c")
    void testTimedInvokeAll5(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            List<Future<String>> futures = v.view.invokeAll(List.of(new StringTask(), new StringTask()),
                    LONG_DELAY_MS, MILLISECONDS);
            assertEquals(2, futures.size());
            for (Future<String> future : futures) {
                assertSame(TEST_STRING, future.get());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("timed invokeAll cancels the tasks not completed by the timeout, and their associations are released")
    void testTimedInvokeAll6(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            List<Callable<String>> tasks = List.of(new StringTask("0"), ViewUnderTest.blocker(started, never));
            List<Future<String>> futures = v.view.invokeAll(tasks, 50, MILLISECONDS);
            assertEquals(tasks.size(), futures.size());
            for (Future<?> future : futures) {
                assertTrue(future.isDone());
            }
            assertEquals("0", futures.get(0).get());
            assertTrue(futures.get(1).isCancelled());
            assertThrows(CancellationException.class, () -> futures.get(1).get());
            v.view.shutdown();
            assertTrue(v.view.awaitTermination(LONG_DELAY_MS, TimeUnit.MILLISECONDS),
                    "the cancelled task ends (interrupted, or released before it ran)");
        }
    }
}
