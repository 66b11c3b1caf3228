package dev.senders.scope.tck;

import static dev.senders.scope.tck.ViewUnderTest.LONG_DELAY_MS;
import static dev.senders.scope.tck.ViewUnderTest.TEST_STRING;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import dev.senders.scope.tck.ViewUnderTest.Kind;
import dev.senders.scope.tck.ViewUnderTest.NoOpRunnable;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code ExecutorService} contract parts of the JSR-166 TCK's {@code ExecutorsTest} (OpenJDK
 * {@code test/jdk/java/util/concurrent/tck/ExecutorsTest.java}): what every executor service made
 * by {@link Executors} must do, ported to JUnit 5 and checked on {@code ScopeExecutor} views of a
 * direct executor, a bounded thread pool and a cached pool, and on a view over each kind of
 * {@link Executors} pool. The TCK was written by Doug Lea with assistance from members of JCP
 * JSR-166 Expert Group and released to the public domain (CC0), as explained at
 * http://creativecommons.org/publicdomain/zero/1.0/. The factory tests' own parts (thread
 * factories, casts, configuration) have no counterpart on the view and are left out.
 */
@DisplayName("ScopeExecutor passes the ExecutorService parts of the JSR-166 TCK's ExecutorsTest")
class ScopeExecutorExecutorsTckTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("a view can execute runnables (testNewCachedThreadPool1, testNewSingleThreadExecutor1, testNewFixedThreadPool1)")
    void testExecutesRunnables(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch ran = new CountDownLatch(3);
            v.view.execute(ran::countDown);
            v.view.execute(ran::countDown);
            v.view.execute(ran::countDown);
            ViewUnderTest.await(ran);
            v.shutdownAndAwaitTermination();
        }
    }

    @Test
    @DisplayName("a view over each kind of Executors pool runs submitted callables (the factories' testNew* tests)")
    void testViewOverEachExecutorsPool() throws Exception {
        ExecutorService[] pools = {Executors.newSingleThreadExecutor(), Executors.newFixedThreadPool(2),
            Executors.newCachedThreadPool(), Executors.newWorkStealingPool(2), Executors.newScheduledThreadPool(1)};
        for (ExecutorService pool : pools) {
            CountingScope scope = new CountingScope("executors");
            ExecutorService view = ScopeExecutor.of(pool, scope);
            try {
                assertSame(TEST_STRING, view.submit(() -> TEST_STRING).get(LONG_DELAY_MS, MILLISECONDS), pool.toString());
                assertNull(view.submit(new NoOpRunnable()).get(LONG_DELAY_MS, MILLISECONDS));
                view.shutdown();
                assertTrue(view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
                assertTrue(view.isTerminated());
                assertTrue(!pool.isShutdown(), "the view never shuts its executor down");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("timeouts from execute will time out if they compute too long (testTimeoutsFromExecute)")
    void testTimeoutsFromExecute(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            Future<String> f = v.view.submit(ViewUnderTest.blocker(started, never));
            assertThrows(TimeoutException.class, () -> f.get(20, MILLISECONDS));
            assertTrue(f.cancel(true));
            assertTrue(f.isCancelled());
            v.view.shutdown();
            assertTrue(v.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS), "cancel(true) interrupted the task");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("Executors.callable(runnable) and callable(runnable, result) run through the view (testCallable1, testCallable2)")
    void testCallable(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            Callable<Object> c = Executors.callable(new NoOpRunnable());
            assertNull(v.view.submit(c).get());
            Callable<String> c2 = Executors.callable(new NoOpRunnable(), TEST_STRING);
            assertSame(TEST_STRING, v.view.submit(c2).get());
            Callable<Object> failing = Executors.callable((Runnable) () -> {
                throw new ArithmeticException();
            });
            ExecutionException e = assertThrows(ExecutionException.class, () -> v.view.submit(failing).get());
            assertTrue(e.getCause() instanceof ArithmeticException);
            v.shutdownAndAwaitTermination();
            assertTrue(v.errors.isEmpty(), "the future kept its task's exception");
        }
    }
}
