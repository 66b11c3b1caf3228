package dev.senders.spring.boot;

import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.OutstandingWork;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A point-in-time view of the application scope, as the {@code senders} endpoint shows it and the
 * shutdown log prints it. Its counters have two extents, each named:
 * <ul>
 * <li><b>by kind of work the starter handed to the scope</b> ({@link WorkKind}): {@code spawned}
 *     (through {@link ScopeSpawner}, {@link ReactorScopeSpawner}, {@link RxScopeSpawner}),
 *     {@code executorTasks} (tasks of tracked executors, {@code @Async} methods) and
 *     {@code subscriptions} (fire-and-forget subscriptions, {@code null} while that kind is not
 *     in use), each as {@link Counts}: once the scope is quiet, {@code started = completed +
 *     failed + stopped};
 * <li><b>the whole scope</b>, however work reached it (the above, {@code scope().getToken()}, the
 *     adapters' container views): {@code active}, {@code scopeFailed}, {@code scopeRefused},
 *     {@code outstanding} and {@code summary}.
 * </ul>
 * The subscriptions kind includes the fire-and-forget subscriptions the hooks found for the scope
 * (each adapter's {@code FireAndForgetTracker}): {@code started} counts every one found,
 * {@code completed} every one that ended (the hooks do not tell a value from an error or a
 * cancel; a tracked subscription's error is in {@code scopeFailed}, as every error), and
 * {@code refused} those found in {@code track} mode while the scope was closed: unlike refused work
 * of the other kinds they did run, untracked, and are also in {@code started}. Each piece of work
 * is in one kind at most, so nothing is counted twice; {@code active} is the scope's own count, not
 * the sum of the kinds' {@link Counts#running()}: it holds the subscriptions found in {@code track}
 * mode (they are associated with the scope) but not those found in {@code report} mode nor the
 * untracked ones, and it holds work associated with {@code scope().getToken()} directly, which is in
 * no kind.
 * The scope sees only work associated with it: a plain {@code subscribe()}, a thread started by
 * hand or a task of an untracked executor is in none of these numbers, so {@code active == 0} means
 * nothing the scope can see is running, and {@link #toString()} says so. The counters are read one
 * after another, not atomically. The outstanding work's entries are the core's
 * ({@link OutstandingWork}, {@link OutstandingSummary}): the same names, states, ages and spawn-site
 * frames as the shutdown log.
 *
 * @param name             the scope's name ({@code senders.scope.name})
 * @param state            the scope's state
 * @param active           the scope's count: all work associated with it and not yet finished
 * @param spawned          work spawned through the spawners
 * @param executorTasks    tasks of tracked executors
 * @param subscriptions    fire-and-forget subscriptions (found by the hooks, or spawned with that kind's
 *                         token), or {@code null} when that kind is not in use
 * @param scopeFailed      the scope's {@code errorCount()}: errors of all its work, however spawned
 * @param scopeRefused     the scope's {@code refusedCount()}: associations it refused, however
 *                         attempted, closed or full
 * @param scopeRefusedFull of those, the ones refused because the scope held {@code maxOutstanding}
 *                         operations ({@code refusedCount(RefusalReason.FULL)})
 * @param maxOutstanding   the scope's limit on outstanding work ({@code senders.scope.max-outstanding}),
 *                         or {@code null} when it has none
 * @param outstanding      the oldest work still associated that the scope can list, oldest first, at
 *                         most the list limit ({@code senders.scope.list-limit}): named work (the
 *                         spawners' overloads taking a name, {@code Scopes.named}, executor tasks)
 *                         and, under debug capture ({@code -Ddev.senders.debug=true}), all work
 * @param summary          counts of all outstanding work, shown or not; {@code null} in a report of
 *                         the counters only ({@link ScopeSpawner#counters()})
 */
public record ScopeReport(String name, ScopeState state, long active, Counts spawned, Counts executorTasks,
        @Nullable Counts subscriptions, long scopeFailed, long scopeRefused, long scopeRefusedFull,
        @Nullable Long maxOutstanding, List<Work> outstanding, @Nullable Summary summary) {

    /**
     * A report; {@code outstanding} is copied.
     *
     * @param name             the scope's name
     * @param state            the scope's state
     * @param active           the scope's count
     * @param spawned          work spawned through the spawners
     * @param executorTasks    tasks of tracked executors
     * @param subscriptions    fire-and-forget subscriptions, or {@code null}
     * @param scopeFailed      the scope's error count
     * @param scopeRefused     the scope's refused count
     * @param scopeRefusedFull the scope's refusals because it was full
     * @param maxOutstanding   the scope's limit, or {@code null}
     * @param outstanding      the oldest listed work still associated
     * @param summary          counts of all outstanding work, or {@code null}
     */
    public ScopeReport {
        outstanding = List.copyOf(outstanding);
    }

    /**
     * How the work of one kind went.
     *
     * @param started   pieces the scope accepted
     * @param completed of those, the ones that ended with a value
     * @param failed    of those, the ones that ended with an error (handled by the scope's error handler)
     * @param stopped   of those, the ones that ended stopped (their own cancel, or the scope's stop
     *                  request at shutdown)
     * @param refused   pieces the scope refused (closed, or full): never started
     */
    public record Counts(long started, long completed, long failed, long stopped, long refused) {

        /**
         * Pieces started and not ended yet (read one after another: may be off while work ends).
         *
         * @return {@code started - completed - failed - stopped}
         */
        public long running() {
            return started - completed - failed - stopped;
        }

        /** {@code 120 started, 110 completed, 5 failed, 2 stopped, 1 refused}. */
        @Override
        public String toString() {
            return started + " started, " + completed + " completed, " + failed + " failed, " + stopped
                    + " stopped, " + refused + " refused";
        }
    }

    /**
     * One piece of work still associated with the scope, from the core's view of it
     * ({@link OutstandingWork}).
     *
     * @param name      the name it was spawned with; {@code null} for unnamed work listed under
     *                  debug capture
     * @param kind      how it was associated: {@code spawn}, {@code spawnFuture} or {@code nest}
     * @param queued    whether it was waiting for a thread (an executor's task not yet run) rather
     *                  than running
     * @param ageMillis how long it had been queued or running when the report was made, in milliseconds
     * @param spawnSite where it was spawned, one frame a line, application frames only, at most
     *                  {@link OutstandingSummary#DEFAULT_FRAMES}; empty unless debug capture was on then
     */
    public record Work(@Nullable String name, String kind, boolean queued, long ageMillis, List<String> spawnSite) {

        /**
         * A work entry; {@code spawnSite} is copied.
         *
         * @param name      the work's name, or {@code null}
         * @param kind      how it was associated
         * @param queued    whether it was queued rather than running
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
         * @return its name, kind, state, age and spawn site (as the core's renderer selects its frames)
         */
        public static Work of(OutstandingWork work) {
            return new Work(work.name().orElse(null), work.kind(), work.queued(), work.age().toMillis(),
                    OutstandingSummary.spawnSite(work, OutstandingSummary.DEFAULT_FRAMES,
                            OutstandingSummary.APPLICATION_FRAMES));
        }
    }

    /**
     * Counts of all the scope's outstanding work (see {@link OutstandingSummary}).
     *
     * @param listLimit       the most pieces of work {@code outstanding} lists
     * @param listed          outstanding work the scope can list (named, or all under debug capture)
     * @param unlisted        outstanding work the scope only counts (unnamed, without debug capture)
     * @param notShown        outstanding work not in {@code outstanding}: beyond the limit, or unlisted
     * @param byName          listed work by name, most frequent first (at most ten names)
     * @param otherNames      listed work under other names
     * @param byKind          listed work by kind ({@code spawn}, {@code spawnFuture}, {@code nest})
     * @param oldestAgeMillis the oldest listed work's age in milliseconds, or {@code null} when none
     */
    public record Summary(int listLimit, long listed, long unlisted, long notShown, Map<String, Long> byName,
            long otherNames, Map<String, Long> byKind, @Nullable Long oldestAgeMillis) {

        /**
         * A summary; the maps are copied, keeping their order.
         *
         * @param listLimit       the list limit
         * @param listed          listable outstanding work
         * @param unlisted        outstanding work only counted
         * @param notShown        outstanding work not listed in the report
         * @param byName          counts by name
         * @param otherNames      work under other names
         * @param byKind          counts by kind
         * @param oldestAgeMillis the oldest age, or {@code null}
         */
        public Summary {
            byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
            byKind = Collections.unmodifiableMap(new LinkedHashMap<>(byKind));
        }

        /**
         * The summary of {@code s}.
         *
         * @param s a scope's outstanding-work summary
         * @return its counts
         */
        public static Summary of(OutstandingSummary s) {
            return new Summary(s.limit(), s.listed(), s.unlisted(), s.notShown(), s.byName(), s.otherNames(),
                    s.byKind(), s.oldestAge().map(Duration::toMillis).orElse(null));
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
        return new ScopeReport(counters.name, counters.state, counters.active, counters.spawned,
                counters.executorTasks, counters.subscriptions, counters.scopeFailed, counters.scopeRefused,
                counters.scopeRefusedFull, counters.maxOutstanding, outstanding.oldest().stream().map(Work::of).toList(),
                Summary.of(outstanding));
    }

    /**
     * The counts of one kind of work.
     *
     * @param kind the kind
     * @return its counts; all zero for {@link WorkKind#SUBSCRIPTION} while that kind is not in use
     */
    public Counts counts(WorkKind kind) {
        return switch (kind) {
            case SPAWNED -> spawned;
            case EXECUTOR_TASK -> executorTasks;
            case SUBSCRIPTION -> subscriptions == null ? new Counts(0, 0, 0, 0, 0) : subscriptions;
        };
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
     * One line for logs, e.g. {@code scope 'application' OPEN: 3 active; 2 failed, 1 refused in all;
     * spawned: 120 started, ...; executor tasks: 800 started, ...}: each kind of work that was
     * started or refused, by its {@link WorkKind#label()}. With nothing active it says what the
     * scope cannot see.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("scope '").append(name).append("' ").append(state).append(": ")
                .append(active).append(" active");
        if (maxOutstanding != null) {
            sb.append(" (limit ").append(maxOutstanding).append(')');
        }
        if (active == 0) {
            sb.append(", counting only work associated with it (").append(unseen()).append(')');
        }
        sb.append("; ").append(scopeFailed).append(" failed, ").append(scopeRefused).append(" refused in all");
        boolean any = false;
        for (WorkKind kind : WorkKind.values()) {
            Counts c = kind == WorkKind.SUBSCRIPTION ? subscriptions : counts(kind);
            if (c != null && (c.started() != 0 || c.refused() != 0)) {
                sb.append("; ").append(kind.label()).append(": ").append(c);
                any = true;
            }
        }
        if (!any) {
            sb.append("; nothing handed to it through the starter");
        }
        return sb.toString();
    }

    /** What the scope does not see, given the fire-and-forget trackers installed for it. */
    private String unseen() {
        FireAndForgetMode seen = FireAndForgetMode.OFF;
        for (FireAndForgetTracker t : FireAndForgetTracker.installed()) {
            if (t.scope().name().equals(name) && t.mode().compareTo(seen) > 0) {
                seen = t.mode();
            }
        }
        return switch (seen) {
            case TRACK -> "a thread of its own or a task of an untracked executor is not seen, and is not waited for;"
                    + " plain subscribe()s are, as fire-and-forget work";
            case REPORT -> "a plain subscribe() is only reported, in the fire-and-forget line; a thread of its own or a"
                    + " task of an untracked executor is not seen; none of them is waited for";
            case OFF -> "a plain subscribe(), a thread of its own or a task of an untracked executor is not seen, and is"
                    + " not waited for";
        };
    }
}
