package dev.senders.test;

import dev.senders.scope.OutstandingWork;
import dev.senders.scope.ScopeTrace;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The one wording of a test failed by its background work, shared by {@link SendersExtension}
 * and the Spring listener: the work still running (name, kind, age, spawn site) and the errors of
 * spawned work, attached as suppressed exceptions.
 */
final class WorkFailures {

    private static final int SITE_FRAMES = 12;

    private WorkFailures() {}

    /**
     * The failure, or {@code null} when nothing ran too long and nothing failed.
     *
     * @param where the test and the scope, e.g. {@code "scope 'AuditTest.audits'"}
     * @param deadline the deadline text, e.g. {@code "5 s"}
     * @param running the work still running at the deadline (empty if it finished)
     * @param timedOut whether the deadline passed (work may be unlisted: unnamed, spawned without debug capture)
     * @param errors the errors of spawned work and dropped errors
     * @param extra errors that the errors list does not hold but the scope counted
     */
    static @Nullable AssertionError failure(String where, String deadline, List<OutstandingWork> running, boolean timedOut,
            List<Throwable> errors, long extra) {
        if (!timedOut && errors.isEmpty() && extra == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        if (timedOut) {
            sb.append("work spawned during the test still runs ").append(deadline).append(" after it ended (")
                    .append(where).append("); stop was requested on it. Wait for it in the test, stop it, or give it more time");
            if (running.isEmpty()) {
                sb.append("\n  (no work listed: spawn it with a name, Scopes.named(sender, name), to see it here)");
            }
            for (OutstandingWork w : running) {
                sb.append("\n  - ").append(w);
                List<StackTraceElement> site = w.spawnSite();
                for (int i = 0; i < site.size() && i < SITE_FRAMES; i++) {
                    sb.append("\n      at ").append(site.get(i));
                }
            }
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
