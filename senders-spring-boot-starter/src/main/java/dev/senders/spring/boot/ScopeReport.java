package dev.senders.spring.boot;

import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.OutstandingWork;
import dev.senders.scope.ScopeState;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A point-in-time view of the application scope, as the {@code senders} endpoint shows it and the
 * shutdown log prints it. Its counters have two extents, each named:
 * <ul>
 * <li><b>the starter's spawners</b> ({@link ScopeSpawner}, {@link ReactorScopeSpawner},
 *     {@link RxScopeSpawner}): {@code spawned}, {@code completed}, {@code failed}, {@code stopped},
 *     {@code refused} count only work handed to them. Once the scope is quiet,
 *     {@code spawned = completed + failed + stopped} (while work runs, the difference is the
 *     spawners' work still running);
 * <li><b>the whole scope</b>, however work reached it (the spawners, {@code scope().getToken()}, the
 *     adapters' container views, an executor view): {@code active}, {@code scopeFailed},
 *     {@code scopeRefused}, {@code outstanding} and {@code summary}.
 * </ul>
 * The counters are read one after another, not atomically.
 *
 * @param name         the scope's name ({@code senders.scope.name})
 * @param state        the scope's state
 * @param active       the scope's count: all work associated with it and not yet finished
 * @param spawned      work the spawners handed to the scope and it accepted
 * @param completed    of those, work that ended with a value
 * @param failed       of those, work that ended with an error (handled by the scope's error handler)
 * @param stopped      of those, work that ended stopped (its own cancel, or the scope's stop request
 *                     at shutdown)
 * @param refused      work the spawners handed to the scope that it refused (closed, or full)
 * @param scopeFailed  the scope's {@code errorCount()}: errors of all its work, however spawned
 * @param scopeRefused the scope's {@code refusedCount()}: associations it refused, however attempted,
 *                     closed or full
 * @param scopeRefusedFull of those, the ones refused because the scope held {@code maxOutstanding}
 *                     operations ({@code refusedCount(RefusalReason.FULL)})
 * @param maxOutstanding the scope's limit on outstanding work ({@code senders.scope.max-outstanding}),
 *                     or {@code null} when it has none
 * @param outstanding  the oldest work still running that the scope can list, oldest first, at most
 *                     the list limit ({@code senders.scope.list-limit}): named work (the spawners'
 *                     overloads taking a name, {@code Scopes.named}) and, under debug capture
 *                     ({@code -Ddev.senders.debug=true}), all work
 * @param summary      counts of all outstanding work, shown or not
 */
public record ScopeReport(String name, ScopeState state, long active, long spawned, long completed,
        long failed, long stopped, long refused, long scopeFailed, long scopeRefused, long scopeRefusedFull,
        @Nullable Long maxOutstanding, List<Work> outstanding, @Nullable Summary summary) {

    /** Spawn-site frames printed in log lines, for the oldest piece of work only. */
    static final int LOG_FRAMES = 8;

    /**
     * A report; {@code outstanding} is copied.
     *
     * @param name         the scope's name
     * @param state        the scope's state
     * @param active       the scope's count
     * @param spawned      work accepted through the spawners
     * @param completed    of those, work that ended with a value
     * @param failed       of those, work that ended with an error
     * @param stopped      of those, work that ended stopped
     * @param refused      work refused through the spawners
     * @param scopeFailed  the scope's error count
     * @param scopeRefused the scope's refused count
     * @param scopeRefusedFull the scope's refusals because it was full
     * @param maxOutstanding the scope's limit, or {@code null}
     * @param outstanding  the oldest listed work still running
     * @param summary      counts of all outstanding work
     */
    public ScopeReport {
        outstanding = List.copyOf(outstanding);
    }

    /**
     * One piece of work still running, from the scope's outstanding work.
     *
     * @param name      the name it was spawned with; {@code null} for unnamed work listed under
     *                  debug capture
     * @param kind      how it was associated: {@code spawn}, {@code spawnFuture} or {@code nest}
     * @param ageMillis how long it had been running when the report was made, in milliseconds
     * @param spawnSite where it was spawned, one frame a line; empty unless debug capture was on then
     */
    public record Work(@Nullable String name, String kind, long ageMillis, List<String> spawnSite) {

        /** The most spawn-site frames kept per piece of work. */
        public static final int MAX_FRAMES = 16;

        /**
         * A work entry; {@code spawnSite} is copied.
         *
         * @param name      the work's name, or {@code null}
         * @param kind      how it was associated
         * @param ageMillis its age in milliseconds
         * @param spawnSite its spawn site's frames
         */
        public Work {
            spawnSite = List.copyOf(spawnSite);
        }

        /**
         * The entry of {@code work}.
         *
         * @param work a snapshot of outstanding work
         * @return its name, kind, age and spawn site
         */
        public static Work of(OutstandingWork work) {
            return new Work(work.name().orElse(null), work.kind(), work.age().toMillis(),
                    work.spawnSite().stream().limit(MAX_FRAMES).map(StackTraceElement::toString).toList());
        }

        /** {@code send-audit-event (spawn, running for 1200 ms)}; the spawn site is not included. */
        @Override
        public String toString() {
            return (name == null ? "(unnamed)" : name) + " (" + kind + ", running for " + ageMillis + " ms)";
        }
    }

    /**
     * Counts of all the scope's outstanding work (see {@link OutstandingSummary}).
     *
     * @param listLimit       the most pieces of work {@code outstanding} lists
     * @param listed          outstanding work the scope can list (named, or all under debug capture)
     * @param notShown        outstanding work not in {@code outstanding}: beyond the limit, or unlisted
     * @param byName          listed work by name, most frequent first (at most ten names)
     * @param otherNames      listed work under other names
     * @param byKind          listed work by kind ({@code spawn}, {@code spawnFuture}, {@code nest})
     * @param oldestAgeMillis the oldest listed work's age in milliseconds, or {@code null} when none
     */
    public record Summary(int listLimit, long listed, long notShown, Map<String, Long> byName, long otherNames,
            Map<String, Long> byKind, @Nullable Long oldestAgeMillis) {

        /**
         * A summary; the maps are copied, keeping their order.
         *
         * @param listLimit       the list limit
         * @param listed          listable outstanding work
         * @param notShown        outstanding work not listed in the report
         * @param byName          counts by name
         * @param otherNames      work under other names
         * @param byKind          counts by kind
         * @param oldestAgeMillis the oldest age, or {@code null}
         */
        public Summary {
            byName = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byName));
            byKind = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byKind));
        }

        /**
         * The summary of {@code s}.
         *
         * @param s a scope's outstanding-work summary
         * @return its counts
         */
        public static Summary of(OutstandingSummary s) {
            return new Summary(s.limit(), s.listed(), s.notShown(), s.byName(), s.otherNames(), s.byKind(),
                    s.oldestAge().map(java.time.Duration::toMillis).orElse(null));
        }
    }

    /**
     * The report of a scope: the counters and what {@code outstanding} summarizes.
     *
     * @param counters    the counters (their {@code outstanding} and {@code summary} are ignored)
     * @param outstanding the scope's outstanding work, bounded
     * @return the full report
     */
    static ScopeReport of(ScopeReport counters, OutstandingSummary outstanding) {
        return new ScopeReport(counters.name, counters.state, counters.active, counters.spawned, counters.completed,
                counters.failed, counters.stopped, counters.refused, counters.scopeFailed, counters.scopeRefused,
                counters.scopeRefusedFull, counters.maxOutstanding, outstanding.oldest().stream().map(Work::of).toList(), Summary.of(outstanding));
    }

    /**
     * Whether the scope still accepts work.
     *
     * @return {@code state().isOpen()}
     */
    public boolean open() {
        return state.isOpen();
    }

    /**
     * Whether the scope holds as many operations as its limit allows (it refuses new work until some
     * ends).
     *
     * @return {@code true} if it has a limit and {@code active} has reached it
     */
    public boolean saturated() {
        return maxOutstanding != null && active >= maxOutstanding;
    }

    /**
     * The outstanding work for a log, one piece a line (each line starting with a line break and two
     * spaces), the oldest followed by its spawn site's first frames when captured, then one line for
     * what is not shown and one for unnamed work: at most the list limit plus eleven lines, whatever
     * the number outstanding; empty when nothing is outstanding.
     *
     * @return the lines, e.g. {@code "\n  send-audit-event (spawn, running for 1200 ms)"}
     */
    public String outstandingLines() {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Work w : outstanding) {
            sb.append("\n  ").append(w);
            if (first) {
                List<String> site = w.spawnSite();
                for (int i = 0; i < site.size() && i < LOG_FRAMES; i++) {
                    sb.append("\n      at ").append(site.get(i));
                }
                first = false;
            }
        }
        if (summary == null) {
            return sb.toString();
        }
        long beyond = summary.listed() - outstanding.size();
        if (beyond > 0) {
            sb.append("\n  and ").append(beyond).append(" more named not shown (senders.scope.list-limit=")
                    .append(summary.listLimit()).append("): by name ");
            summary.byName().forEach((n, c) -> sb.append(n).append('=').append(c).append(' '));
            if (summary.otherNames() > 0) {
                sb.append("others=").append(summary.otherNames()).append(' ');
            }
            sb.append("by kind ");
            summary.byKind().forEach((k, c) -> sb.append(k).append('=').append(c).append(' '));
            if (summary.oldestAgeMillis() != null) {
                sb.append("oldest running for ").append(summary.oldestAgeMillis()).append(" ms");
            }
        }
        long unlisted = active - summary.listed();
        if (unlisted > 0 && (!outstanding.isEmpty() || beyond > 0)) {
            sb.append("\n  and ").append(unlisted).append(" unnamed");
        }
        return sb.toString();
    }

    /**
     * One line for logs: {@code scope 'application' CLOSED_AND_JOINING: 3 active, spawners: 120 spawned, ...}.
     */
    @Override
    public String toString() {
        return "scope '" + name + "' " + state + ": " + active + " active"
                + (maxOutstanding == null ? "" : " (limit " + maxOutstanding + ")") + ", " + scopeFailed + " failed, " + scopeRefused
                + " refused; through the spawners: " + spawned + " spawned, " + completed + " completed, " + failed
                + " failed, " + stopped + " stopped, " + refused + " refused";
    }
}
