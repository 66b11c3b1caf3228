package dev.senders.spring.boot;

import dev.senders.scope.OutstandingWork;
import dev.senders.scope.ScopeState;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A point-in-time view of the application scope, as the {@code senders} endpoint shows it and the
 * shutdown log prints it. The counters are read one after another, not atomically: while work
 * runs, {@code spawned = active + completed + failed + stopped} holds only once the scope is quiet.
 *
 * @param name        the scope's name ({@code senders.scope.name})
 * @param state       the scope's state
 * @param active      work associated with the scope and not yet finished (the scope's count)
 * @param spawned     work accepted through the starter's beans and token
 * @param completed   of those, work that ended with a value
 * @param failed      work whose error went to the scope's handler (the scope's error count: all work
 *                    spawned into the scope, however it was spawned)
 * @param stopped     work accepted through the starter that ended stopped (its own cancel or the
 *                    scope's stop request at shutdown)
 * @param refused     associations the scope refused because it was closed, however they were
 *                    attempted (the scope's {@code refusedCount()})
 * @param outstanding the work still running that the scope can list, oldest first: named work
 *                    (the spawners' overloads taking a name, {@code Scopes.named}) and, under debug
 *                    capture ({@code -Ddev.senders.debug=true}), all work; {@code active} minus its
 *                    size is unnamed work that is only counted
 */
public record ScopeReport(String name, ScopeState state, long active, long spawned, long completed,
        long failed, long stopped, long refused, List<Work> outstanding) {

    /**
     * A report; {@code outstanding} is copied.
     *
     * @param name        the scope's name
     * @param state       the scope's state
     * @param active      the scope's count
     * @param spawned     work accepted through the starter
     * @param completed   work that ended with a value
     * @param failed      the scope's error count
     * @param stopped     work that ended stopped
     * @param refused     the scope's refused count
     * @param outstanding the listed work still running
     */
    public ScopeReport {
        outstanding = List.copyOf(outstanding);
    }

    /**
     * One piece of work still running, from the scope's {@code outstanding()}.
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
         * @param work a snapshot from the scope's {@code outstanding()}
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
     * Whether the scope still accepts work.
     *
     * @return {@code state().isOpen()}
     */
    public boolean open() {
        return state.isOpen();
    }

    /**
     * The outstanding work for a log, one piece a line (each line starting with a line break and
     * two spaces), each followed by its spawn site's frames when captured; empty when nothing is
     * listed.
     *
     * @return the lines, e.g. {@code "\n  send-audit-event (spawn, running for 1200 ms)"}
     */
    public String outstandingLines() {
        StringBuilder sb = new StringBuilder();
        for (Work w : outstanding) {
            sb.append("\n  ").append(w);
            for (String frame : w.spawnSite()) {
                sb.append("\n      at ").append(frame);
            }
        }
        long unlisted = active - outstanding.size();
        if (unlisted > 0 && !outstanding.isEmpty()) {
            sb.append("\n  and ").append(unlisted).append(" unnamed");
        }
        return sb.toString();
    }

    /** One line for logs: {@code scope 'application' CLOSED_AND_JOINING: 3 active, 120 spawned, ...}. */
    @Override
    public String toString() {
        return "scope '" + name + "' " + state + ": " + active + " active, " + spawned + " spawned, " + completed
                + " completed, " + failed + " failed, " + stopped + " stopped, " + refused + " refused";
    }
}
