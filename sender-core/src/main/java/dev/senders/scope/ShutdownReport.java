package dev.senders.scope;

import dev.senders.internal.Durations;
import java.time.Duration;
import java.util.List;

/**
 * What {@link Scopes#joinOrStop(CountingScope, Duration, Duration)} found: whether the scope
 * joined, whether stop had to be requested, and what was still running when it gave up. Its
 * {@link #toString()} is meant for a shutdown log, e.g.
 *
 * <pre>
 * scope 'orders' did not join: 1 operation(s) still associated 300 ms after close() (grace 100 ms, then 200 ms after requestStop()), state CLOSED_AND_JOINING
 *   audit-7 (spawn, running for 301 ms)
 *       at com.acme.Orders.place(Orders.java:42)
 * </pre>
 *
 * An immutable snapshot.
 */
public final class ShutdownReport {

    private static final int MAX_FRAMES = 8;

    private final String scope;
    private final boolean joined;
    private final boolean stopRequested;
    private final boolean interrupted;
    private final Duration grace;
    private final Duration stopTimeout;
    private final Duration elapsed;
    private final long remainingAtGrace;
    private final long remaining;
    private final ScopeState state;
    private final List<OutstandingWork> stillRunning;

    ShutdownReport(String scope, boolean joined, boolean stopRequested, boolean interrupted, Duration grace,
            Duration stopTimeout, Duration elapsed, long remainingAtGrace, long remaining, ScopeState state,
            List<OutstandingWork> stillRunning) {
        this.scope = scope;
        this.joined = joined;
        this.stopRequested = stopRequested;
        this.interrupted = interrupted;
        this.grace = grace;
        this.stopTimeout = stopTimeout;
        this.elapsed = elapsed;
        this.remainingAtGrace = remainingAtGrace;
        this.remaining = remaining;
        this.state = state;
        this.stillRunning = List.copyOf(stillRunning);
    }

    /**
     * The scope's name.
     *
     * @return the name of the scope shut down
     */
    public String scope() {
        return scope;
    }

    /**
     * Whether the scope joined (all its work ended) before the helper returned.
     *
     * @return {@code true} if the scope joined
     */
    public boolean joined() {
        return joined;
    }

    /**
     * Whether the grace period passed (or an interrupt came) and stop was requested on the scope.
     *
     * @return {@code true} if stop was requested
     */
    public boolean stopRequested() {
        return stopRequested;
    }

    /**
     * Whether an interrupt of the calling thread cut the waits short (its interrupt status is then set).
     *
     * @return {@code true} if the waits were interrupted
     */
    public boolean interrupted() {
        return interrupted;
    }

    /**
     * The grace period asked for.
     *
     * @return the {@code grace} passed to {@code joinOrStop}
     */
    public Duration grace() {
        return grace;
    }

    /**
     * The time allowed after the stop request.
     *
     * @return the {@code stopTimeout} passed to {@code joinOrStop}
     */
    public Duration stopTimeout() {
        return stopTimeout;
    }

    /**
     * Time from {@code close()} to the end of the last wait.
     *
     * @return the total time spent shutting down
     */
    public Duration elapsed() {
        return elapsed;
    }

    /**
     * Operations associated when the grace period ended (0 if the scope joined within it).
     *
     * @return the count of operations still associated after the grace period
     */
    public long remainingAtGrace() {
        return remainingAtGrace;
    }

    /**
     * Operations still associated at the end (0 if joined).
     *
     * @return the count of operations still associated at the end
     */
    public long remaining() {
        return remaining;
    }

    /**
     * The scope's state at the end.
     *
     * @return the scope's final state
     */
    public ScopeState state() {
        return state;
    }

    /**
     * The listed work still running at the end, oldest first (see {@link CountingScope#outstanding()}).
     *
     * @return the listable work still running, oldest first
     */
    public List<OutstandingWork> stillRunning() {
        return stillRunning;
    }

    /**
     * Operations still associated at the end that the scope could not list (unnamed, spawned without capture).
     *
     * @return the count of associated operations not in {@link #stillRunning()}
     */
    public long unlisted() {
        return Math.max(0L, remaining - stillRunning.size());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("scope '").append(scope).append("' ");
        if (joined) {
            sb.append("joined ").append(Durations.format(elapsed)).append(" after close()");
            if (stopRequested) {
                sb.append(", after requestStop(): the ").append(Durations.format(grace))
                        .append(" grace had passed with ").append(remainingAtGrace).append(" operation(s) running");
            }
            return sb.toString();
        }
        sb.append("did not join: ").append(remaining).append(" operation(s) still associated ")
                .append(Durations.format(elapsed)).append(" after close() (");
        if (interrupted) {
            sb.append("interrupted; stop requested");
        } else {
            sb.append("grace ").append(Durations.format(grace)).append(", then ")
                    .append(Durations.format(stopTimeout)).append(" after requestStop()");
        }
        sb.append("), state ").append(state);
        for (OutstandingWork w : stillRunning) {
            sb.append("\n  ").append(w);
            List<StackTraceElement> site = w.spawnSite();
            for (int i = 0; i < site.size() && i < MAX_FRAMES; i++) {
                sb.append("\n      at ").append(site.get(i));
            }
            if (site.size() > MAX_FRAMES) {
                sb.append("\n      ... ").append(site.size() - MAX_FRAMES).append(" more");
            }
        }
        long unlisted = unlisted();
        if (unlisted > 0) {
            sb.append("\n  ").append(unlisted).append(" unnamed operation(s) not listed (name work with"
                    + " Scopes.named, or run with -Ddev.senders.debug=true to list all work with its spawn site)");
        }
        return sb.toString();
    }
}
