package dev.senders.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import org.jspecify.annotations.Nullable;

/**
 * The event classes and the code that touches them; loaded only through {@link Jfr} when
 * {@code jdk.jfr} is present. Each method checks {@code isEnabled()} before allocating.
 */
final class JfrEvents {

    private static final SpawnEvent SPAWN_PROBE = new SpawnEvent();
    private static final WorkEndEvent WORK_END_PROBE = new WorkEndEvent();
    private static final JoinStartEvent JOIN_START_PROBE = new JoinStartEvent();
    private static final JoinEndEvent JOIN_END_PROBE = new JoinEndEvent();

    private JfrEvents() {}

    static boolean workEnabled() {
        return SPAWN_PROBE.isEnabled() || WORK_END_PROBE.isEnabled();
    }

    static boolean joinEnabled() {
        return JOIN_START_PROBE.isEnabled() || JOIN_END_PROBE.isEnabled();
    }

    static @Nullable Object workStarted(String scope, @Nullable String work, String kind) {
        if (SPAWN_PROBE.isEnabled()) {
            SpawnEvent e = new SpawnEvent();
            e.scope = scope;
            e.work = work;
            e.kind = kind;
            e.commit();
        }
        if (!WORK_END_PROBE.isEnabled()) {
            return null;
        }
        WorkEndEvent e = new WorkEndEvent();
        e.scope = scope;
        e.work = work;
        e.kind = kind;
        e.begin();
        return e;
    }

    static void workEnded(Object begun, String outcome, @Nullable Throwable error) {
        WorkEndEvent e = (WorkEndEvent) begun;
        e.end();
        if (e.shouldCommit()) {
            e.outcome = outcome;
            e.error = error == null ? null : error.toString();
            e.commit();
        }
    }

    static @Nullable Object joinStarted(String scope, long outstanding) {
        if (JOIN_START_PROBE.isEnabled()) {
            JoinStartEvent e = new JoinStartEvent();
            e.scope = scope;
            e.outstanding = outstanding;
            e.commit();
        }
        if (!JOIN_END_PROBE.isEnabled()) {
            return null;
        }
        JoinEndEvent e = new JoinEndEvent();
        e.scope = scope;
        e.begin();
        return e;
    }

    static void joinEnded(Object begun) {
        JoinEndEvent e = (JoinEndEvent) begun;
        e.end();
        if (e.shouldCommit()) {
            e.commit();
        }
    }

    static void joinDeadline(String scope, String phase, long waitedNanos, long remaining, String stillRunning) {
        JoinDeadlineEvent e = new JoinDeadlineEvent();
        if (e.isEnabled()) {
            e.scope = scope;
            e.phase = phase;
            e.waited = waitedNanos;
            e.remaining = remaining;
            e.stillRunning = stillRunning;
            e.commit();
        }
    }

    @Name("dev.senders.Spawn")
    @Label("Work Spawned")
    @Category("Senders")
    @Description("Work associated with an async scope started (spawn, spawnFuture or nest); the stack trace is where.")
    @Enabled(false)
    static final class SpawnEvent extends Event {
        @Label("Scope")
        @Nullable String scope;
        @Label("Work")
        @Description("The work's name; null when unnamed")
        @Nullable String work;
        @Label("Kind")
        @Description("spawn, spawnFuture or nest")
        @Nullable String kind;
    }

    @Name("dev.senders.WorkEnd")
    @Label("Work Ended")
    @Category("Senders")
    @Description("Work associated with an async scope completed; the duration is its run.")
    @Enabled(false)
    @StackTrace(false)
    static final class WorkEndEvent extends Event {
        @Label("Scope")
        @Nullable String scope;
        @Label("Work")
        @Nullable String work;
        @Label("Kind")
        @Nullable String kind;
        @Label("Outcome")
        @Description("value, error or stopped")
        @Nullable String outcome;
        @Label("Error")
        @Nullable String error;
    }

    @Name("dev.senders.JoinStart")
    @Label("Join Started")
    @Category("Senders")
    @Description("A join of an async scope started waiting for its work.")
    static final class JoinStartEvent extends Event {
        @Label("Scope")
        @Nullable String scope;
        @Label("Outstanding")
        @Description("Operations associated when the join started")
        long outstanding;
    }

    @Name("dev.senders.JoinEnd")
    @Label("Join Ended")
    @Category("Senders")
    @Description("A join of an async scope completed; the duration is the wait.")
    @StackTrace(false)
    static final class JoinEndEvent extends Event {
        @Label("Scope")
        @Nullable String scope;
    }

    @Name("dev.senders.JoinDeadline")
    @Label("Join Deadline Passed")
    @Category("Senders")
    @Description("A shutdown deadline passed while work was still associated with the scope.")
    static final class JoinDeadlineEvent extends Event {
        @Label("Scope")
        @Nullable String scope;
        @Label("Phase")
        @Description("grace (before stop was requested) or stop (after)")
        @Nullable String phase;
        @Label("Waited")
        @Timespan(Timespan.NANOSECONDS)
        long waited;
        @Label("Remaining")
        @Description("Operations still associated")
        long remaining;
        @Label("Still Running")
        @Nullable String stillRunning;
    }
}
