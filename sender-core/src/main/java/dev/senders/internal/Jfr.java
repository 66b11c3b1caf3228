package dev.senders.internal;

import org.jspecify.annotations.Nullable;

/**
 * The library's Flight Recorder events, behind a facade that never loads a {@code jdk.jfr} class
 * when the module is absent (a runtime image without it, or a modular application that does not
 * resolve it: sender-core needs {@code jdk.jfr} only optionally). Not public API.
 *
 * <table>
 * <caption>Events</caption>
 * <tr><th>name</th><th>when</th><th>enabled by default</th></tr>
 * <tr><td>{@code dev.senders.Spawn}</td><td>work associated with a scope starts (spawn, spawnFuture,
 *     nest); stack trace = where</td><td>no (one per task)</td></tr>
 * <tr><td>{@code dev.senders.WorkEnd}</td><td>that work completes; duration = its run, with its
 *     outcome</td><td>no (one per task)</td></tr>
 * <tr><td>{@code dev.senders.JoinStart}</td><td>a join of a scope starts waiting</td><td>yes</td></tr>
 * <tr><td>{@code dev.senders.JoinEnd}</td><td>that join completes; duration = the wait</td><td>yes</td></tr>
 * <tr><td>{@code dev.senders.JoinDeadline}</td><td>a deadline of {@code Scopes.joinOrStop} passed
 *     with work still running; lists it</td><td>yes</td></tr>
 * </table>
 *
 * <p>A disabled event costs one {@code isEnabled()} check (a constant once compiled while no
 * recording enables it). While {@code Spawn} or {@code WorkEnd} is enabled, every piece of work
 * is tracked as named work is (see {@code ScopeCore}), which is what the end event needs.
 */
public final class Jfr {

    /** Whether the {@code jdk.jfr} module is present in the boot layer. */
    public static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private Jfr() {}

    /** Whether a recording wants per-work events. */
    public static boolean workEventsEnabled() {
        return AVAILABLE && JfrEvents.workEnabled();
    }

    /** Commits a Spawn event and returns a begun WorkEnd event (or null when neither is enabled). */
    public static @Nullable Object workStarted(String scope, @Nullable String work, String kind) {
        return AVAILABLE ? JfrEvents.workStarted(scope, work, kind) : null;
    }

    /** Ends and commits what {@link #workStarted} returned (outcome: "value", "error", "stopped"). */
    public static void workEnded(@Nullable Object begun, String outcome, @Nullable Throwable error) {
        if (begun != null) {
            JfrEvents.workEnded(begun, outcome, error);
        }
    }

    /** Whether a recording wants join events. */
    public static boolean joinEventsEnabled() {
        return AVAILABLE && JfrEvents.joinEnabled();
    }

    /** Commits a JoinStart event and returns a begun JoinEnd event (or null when disabled). */
    public static @Nullable Object joinStarted(String scope, long outstanding) {
        return AVAILABLE ? JfrEvents.joinStarted(scope, outstanding) : null;
    }

    /** Ends and commits what {@link #joinStarted} returned. */
    public static void joinEnded(@Nullable Object begun) {
        if (begun != null) {
            JfrEvents.joinEnded(begun);
        }
    }

    /** Commits a JoinDeadline event. */
    public static void joinDeadline(String scope, String phase, long waitedNanos, long remaining, String stillRunning) {
        if (AVAILABLE) {
            JfrEvents.joinDeadline(scope, phase, waitedNanos, remaining, stillRunning);
        }
    }
}
