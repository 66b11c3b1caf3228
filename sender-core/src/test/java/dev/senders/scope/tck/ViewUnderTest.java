package dev.senders.scope.tck;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ScopeExecutor} view of a fresh {@link CountingScope} over one kind of executor, with
 * the JSR-166 TCK's task helpers ({@code JSR166TestCase}: {@code StringTask}, {@code NPETask},
 * {@code NoOpRunnable}, ...). Closing it shuts the view and the executor down and waits for both.
 *
 * <p>The helpers follow the JSR-166 TCK's {@code JSR166TestCase} (written by Doug Lea with
 * assistance from members of JCP JSR-166 Expert Group and released to the public domain, as
 * explained at http://creativecommons.org/publicdomain/zero/1.0/).
 */
final class ViewUnderTest implements AutoCloseable {

    /** The executors the views are tested over. */
    enum Kind {
        /** {@code Runnable::run}: every task runs inside {@code execute}, on the submitting thread. */
        DIRECT,
        /** A {@link ThreadPoolExecutor} of {@value #BOUNDED_THREADS} threads and a bounded queue. */
        BOUNDED_POOL,
        /** {@link Executors#newCachedThreadPool()}: a thread per task when none is idle. */
        CACHED_POOL;

        /** Whether tasks run on other threads than the submitter's, so a task may block. */
        boolean threaded() {
            return this != DIRECT;
        }
    }

    static final int BOUNDED_THREADS = 2;
    /** How long a test waits for something that must happen at once, before it fails. */
    static final long LONG_DELAY_MS = 10_000;
    static final String TEST_STRING = "a test string";

    final Kind kind;
    final List<Throwable> errors = new CopyOnWriteArrayList<>();
    final CountingScope scope;
    final @Nullable ExecutorService pool;
    final ScopeExecutor view;

    private ViewUnderTest(Kind kind) {
        this.kind = kind;
        this.scope = new CountingScope("tck-" + kind, errors::add);
        switch (kind) {
            case DIRECT:
                pool = null;
                view = ScopeExecutor.of(Runnable::run, scope);
                break;
            case BOUNDED_POOL:
                pool = new ThreadPoolExecutor(BOUNDED_THREADS, BOUNDED_THREADS, 60, TimeUnit.SECONDS,
                        new ArrayBlockingQueue<>(10));
                view = ScopeExecutor.of(pool, scope);
                break;
            default:
                pool = Executors.newCachedThreadPool();
                view = ScopeExecutor.of(pool, scope);
                break;
        }
    }

    static ViewUnderTest of(Kind kind) {
        return new ViewUnderTest(kind);
    }

    /** How many of {@code n} blocking tasks the executor runs at once. */
    int runsAtOnce(int n) {
        return kind == Kind.BOUNDED_POOL ? Math.min(n, BOUNDED_THREADS) : n;
    }

    @Override
    public void close() {
        view.shutdownNow();
        try {
            assertTrue(view.awaitTermination(LONG_DELAY_MS, TimeUnit.MILLISECONDS), "the view terminates");
            if (pool != null) {
                pool.shutdownNow();
                assertTrue(pool.awaitTermination(LONG_DELAY_MS, TimeUnit.MILLISECONDS), "the executor terminates");
            }
        } catch (InterruptedException e) {
            fail("interrupted while closing the view", e);
        } finally {
            Thread.interrupted();
        }
    }

    /** {@code shutdown()}, then asserts the view terminates. */
    void shutdownAndAwaitTermination() {
        view.shutdown();
        try {
            assertTrue(view.awaitTermination(LONG_DELAY_MS, TimeUnit.MILLISECONDS), "the view terminates");
        } catch (InterruptedException e) {
            fail("interrupted", e);
        }
    }

    /**
     * Starts a thread that calls {@code body}; {@code outcome} gets what it threw, or an
     * {@link AssertionError} saying what it returned.
     */
    static Thread onAnotherThread(Callable<?> body, AtomicReference<Throwable> outcome) {
        Thread t = new Thread(() -> {
            try {
                outcome.set(new AssertionError("returned " + body.call()));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        t.start();
        return t;
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(LONG_DELAY_MS, TimeUnit.MILLISECONDS), "the latch opens");
        } catch (InterruptedException e) {
            fail("interrupted", e);
        }
    }

    /** TCK {@code StringTask}: returns its string. */
    static final class StringTask implements Callable<String> {
        final String value;

        StringTask() {
            this(TEST_STRING);
        }

        StringTask(String value) {
            this.value = value;
        }

        @Override
        public String call() {
            return value;
        }
    }

    /** TCK {@code NPETask}: throws a {@link NullPointerException}. */
    static final class NPETask implements Callable<String> {
        @Override
        public String call() {
            throw new NullPointerException();
        }
    }

    /** TCK {@code NoOpRunnable}. */
    static final class NoOpRunnable implements Runnable {
        @Override
        public void run() {
        }
    }

    /** A task that waits for {@code release} (interruptible) after counting down {@code started}. */
    static Callable<String> blocker(CountDownLatch started, CountDownLatch release) {
        return () -> {
            started.countDown();
            release.await();
            return TEST_STRING;
        };
    }
}
