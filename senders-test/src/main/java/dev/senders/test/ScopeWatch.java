package dev.senders.test;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingWork;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One Spring test method's watch over the application scope: the errors of work spawned into it
 * (through the starter's error logger, and dropped errors) from the start of the method, and the
 * wait for the scope to be idle, which leaves it open. Used by {@link SendersTestExecutionListener}
 * and {@link ApplicationScope}, on the test's thread.
 */
final class ScopeWatch {

    private final CountingScope scope;
    private final Duration timeout;
    private final String test;
    private final ErrorCapture errors;
    private final @Nullable AutoCloseable starterListener;
    private final long errorCountAtStart;
    private final AtomicLong fromStarter = new AtomicLong();

    ScopeWatch(CountingScope scope, Duration timeout, String test) {
        this.scope = scope;
        this.timeout = timeout;
        this.test = test;
        this.errors = ErrorCapture.open();
        this.starterListener = StarterErrors.listen(scope.name(), e -> {
            fromStarter.incrementAndGet();
            errors.accept(e);
        });
        this.errorCountAtStart = scope.errorCount();
    }

    /**
     * Waits up to {@code wait} for the scope to be idle; the failure to report, or null.
     *
     * @param wait the deadline
     */
    @Nullable AssertionError awaitIdle(Duration wait) {
        boolean idle;
        List<OutstandingWork> running = List.of();
        try {
            Senders.syncWait(scope.whenIdle(), wait);
            idle = true;
        } catch (TimeoutException | CancellationException late) {
            idle = false;
            running = scope.outstanding();
        }
        List<Throwable> seen = errors.errors();
        // errors the scope counted whose handler is not the starter's logger: not seen, only counted
        long extra = Math.max(0L, scope.errorCount() - errorCountAtStart - fromStarter.get());
        return WorkFailures.failure("test " + test + ", scope '" + scope.name() + "', which stays open",
                TestDurations.format(wait), running, !idle, seen, extra);
    }

    /** {@link #awaitIdle(Duration)} with this test's deadline. */
    @Nullable AssertionError awaitIdle() {
        return awaitIdle(timeout);
    }

    /** The end of the test method: waits, stops listening, returns the failure or null. */
    @Nullable AssertionError finish() {
        try {
            return awaitIdle();
        } finally {
            close();
        }
    }

    void close() {
        errors.close();
        try {
            if (starterListener != null) {
                starterListener.close();
            }
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
