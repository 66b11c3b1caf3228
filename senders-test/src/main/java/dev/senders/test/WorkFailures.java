package dev.senders.test;

import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.ScopeTrace;
import dev.senders.scope.ShutdownReport;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The one wording of a test failed by its background work, shared by {@link SendersExtension}
 * and the Spring listener: the work still running at the deadline (the core's
 * {@link OutstandingSummary}: name, kind, age, the caller's spawn-site frames), what was then done
 * to it (stopped, still running, abandoned: said as it happened), and the errors of spawned work,
 * attached as suppressed exceptions.
 */
final class WorkFailures {

    private WorkFailures() {}

    /**
     * Work that was still running at a test's deadline and what was done to it.
     *
     * @param deadline the deadline, e.g. {@code 5 s}
     * @param atDeadline the work running then
     * @param done what was done to it, one or more sentences
     */
    record Leftover(Duration deadline, OutstandingSummary atDeadline, String done) {

        /**
         * The leftover of a {@code CountingScope} shut down with {@code Scopes.joinOrStop}.
         *
         * @param report the shutdown's report
         * @param frames the spawn-site frames to print for work that outlived the stop request
         */
        static Leftover shutDown(Duration deadline, OutstandingSummary atDeadline, ShutdownReport report,
                Predicate<StackTraceElement> frames) {
            String done = switch (report.outcome()) {
                case JOINED -> "It then ended by itself, before stop was requested.";
                case STOPPED -> "Stop was requested on the scope, and all its work then ended within "
                        + TestDurations.format(report.stopTimeout()) + ".";
                case ABANDONED -> "Stop was requested on the scope; " + TestDurations.format(report.stopTimeout())
                        + " later this work still runs and is abandoned (it does not react to stop):"
                        + report.outstanding().lines(SpawnSites.MAX_FRAMES, frames);
            };
            return new Leftover(deadline, atDeadline, done);
        }

        Leftover and(String more) {
            return new Leftover(deadline, atDeadline, done + " " + more);
        }
    }

    /**
     * The failure, or {@code null} when nothing ran too long and nothing failed.
     *
     * @param where the test and the scope, e.g. {@code "scope 'AuditTest.audits'"}
     * @param leftovers the work still running at the deadline, per scope (empty if it all ended)
     * @param errors the errors of spawned work and dropped errors
     * @param extra errors that the errors list does not hold but the scope counted
     * @param frames the spawn-site frames to print
     */
    static @Nullable AssertionError failure(String where, List<Leftover> leftovers, List<Throwable> errors, long extra,
            Predicate<StackTraceElement> frames) {
        if (leftovers.isEmpty() && errors.isEmpty() && extra == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (Leftover leftover : leftovers) {
            sb.append(sb.length() == 0 ? "" : "\n");
            OutstandingSummary s = leftover.atDeadline();
            sb.append("work spawned during the test was still running ").append(TestDurations.format(leftover.deadline()))
                    .append(" after it ended (").append(where).append("): ").append(s.total()).append(" operation(s)")
                    .append(s.lines(SpawnSites.MAX_FRAMES, frames))
                    .append("\n").append(leftover.done())
                    .append("\nWait for the work in the test, stop it, or give it more time.");
        }
        if (!errors.isEmpty() || extra > 0) {
            sb.append(sb.length() == 0 ? "" : "\n").append("work spawned during the test failed (").append(where).append("): ");
            if (!errors.isEmpty()) {
                sb.append(errors.size()).append(errors.size() == 1 ? " error, attached as suppressed" : " errors, attached as suppressed");
                for (Throwable e : errors) {
                    sb.append("\n  - ");
                    ScopeTrace.find(e).flatMap(ScopeTrace::workName).ifPresent(w -> sb.append("work '").append(w).append("': "));
                    sb.append(e);
                }
            }
            if (extra > 0) {
                sb.append(errors.isEmpty() ? "" : "; ").append(extra)
                        .append(extra == 1 ? " error" : " errors").append(" counted by the scope and handled by an error handler other than the starter's (see its log)");
            }
        }
        AssertionError failure = new AssertionError(sb.toString());
        for (Throwable e : errors) {
            failure.addSuppressed(e);
        }
        return failure;
    }
}
