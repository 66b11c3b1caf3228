package dev.senders.test;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;

/**
 * One Spring test method's watch over the application scope: the errors of work spawned into it
 * (through the context's {@code SpawnErrorLogger}, and dropped errors) from the start of the
 * method, the wait for the scope to be idle, which leaves it open, and, when work outlives the
 * wait at the end of the method, the scope's shutdown. Used by {@link SendersTestExecutionListener}
 * and {@link ApplicationScope}, on the test's thread.
 */
final class ScopeWatch {

    /** How long work asked to stop gets to end before the failure is reported. */
    static final Duration STOP_GRACE = Duration.ofSeconds(1);

    /** The end of a test method: the failure to report, and whether the context must be closed. */
    record Verdict(@Nullable AssertionError failure, boolean scopeShutDown) {
    }

    private final CountingScope scope;
    private final Duration timeout;
    private final String test;
    private final Predicate<StackTraceElement> frames;
    private final ErrorCapture errors;
    private final @Nullable AutoCloseable starterListener;
    private final long errorCountAtStart;
    private final AtomicLong fromStarter = new AtomicLong();

    ScopeWatch(ApplicationContext context, CountingScope scope, Duration timeout, String test,
            Predicate<StackTraceElement> frames) {
        this.scope = scope;
        this.timeout = timeout;
        this.test = test;
        this.frames = frames;
        this.errors = ErrorCapture.open();
        this.starterListener = StarterErrors.listen(context, e -> {
            fromStarter.incrementAndGet();
            errors.accept(e);
        });
        this.errorCountAtStart = scope.errorCount();
    }

    /**
     * Waits up to {@code wait} for the scope to be idle, inside the test: work still running is
     * reported and left alone. The failure to report, or null.
     *
     * @param wait the deadline
     */
    @Nullable AssertionError awaitIdle(Duration wait) {
        OutstandingSummary running = idleOrRunning(wait);
        List<WorkFailures.Leftover> leftovers = running == null ? List.of()
                : List.of(new WorkFailures.Leftover(wait, running, "Nothing was done to it yet: it keeps running in the"
                        + " application scope, which stays open; if it still runs after the test, it is stopped then."));
        return failure(leftovers);
    }

    /** {@link #awaitIdle(Duration)} with this test's deadline. */
    @Nullable AssertionError awaitIdle() {
        return awaitIdle(timeout);
    }

    /**
     * The end of the test method: waits for the scope to be idle; if work outlives the wait, shuts
     * the scope down ({@code Scopes.joinOrStop}, stop requested at once, {@link #STOP_GRACE} to
     * end), so that it cannot fail a later test. Stops listening.
     */
    Verdict finish() {
        try {
            OutstandingSummary running = idleOrRunning(timeout);
            if (running == null) {
                return new Verdict(failure(List.of()), false);
            }
            ShutdownReport report = Scopes.joinOrStop(scope, Duration.ZERO, STOP_GRACE);
            WorkFailures.Leftover leftover = WorkFailures.Leftover.shutDown(timeout, running, report, frames)
                    .and("The application context was closed (as @DirtiesContext closes it), so the next test starts"
                            + " with a fresh one.");
            return new Verdict(failure(List.of(leftover)), true);
        } finally {
            close();
        }
    }

    /** Null when the scope was idle within {@code wait}, else the work running then. */
    private @Nullable OutstandingSummary idleOrRunning(Duration wait) {
        try {
            Senders.syncWait(scope.whenIdle(), wait);
            return null;
        } catch (TimeoutException | CancellationException late) {
            OutstandingSummary running = OutstandingSummary.of(scope);
            return running.total() == 0 ? null : running; // ended just after the deadline
        }
    }

    private @Nullable AssertionError failure(List<WorkFailures.Leftover> leftovers) {
        List<Throwable> seen = errors.errors();
        // errors the scope counted whose handler is not the starter's logger: not seen, only counted
        long extra = Math.max(0L, scope.errorCount() - errorCountAtStart - fromStarter.get());
        return WorkFailures.failure("test " + test + ", scope '" + scope.name() + "'", leftovers, seen, extra, frames);
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
