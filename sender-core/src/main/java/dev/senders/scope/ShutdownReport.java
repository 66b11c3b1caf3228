package dev.senders.scope;

import dev.senders.internal.Durations;
import java.time.Duration;
import java.util.List;

/**
 * What {@link Scopes#joinOrStop(CountingScope, Duration, Duration)} (and its asynchronous form
 * {@link Scopes#joinOrStopAsync}) found: how the shutdown ended ({@link #outcome()}), whether stop
 * had to be requested, and what was still running when it gave up, as a bounded
 * {@link OutstandingSummary} (the oldest few pieces of work, then counts). Its {@link #toString()}
 * is meant for a shutdown log and stays a screenful at any number of outstanding operations, e.g.
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

    /** How a shutdown ended. */
    public enum Outcome {
        /** All work finished within the grace period; stop was not requested. */
        JOINED,
        /** Work outlasted the grace period; after the stop request it all ended within the stop timeout. */
        STOPPED,
        /**
         * Work was still associated when the shutdown gave up: at the end of the stop timeout, or when
         * the wait was cut short (an interrupt, or a stop request on the asynchronous form).
         */
        ABANDONED
    }

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
    private final OutstandingSummary outstanding;

    ShutdownReport(String scope, boolean joined, boolean stopRequested, boolean interrupted, Duration grace,
            Duration stopTimeout, Duration elapsed, long remainingAtGrace, long remaining, ScopeState state,
            OutstandingSummary outstanding) {
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
        this.outstanding = outstanding;
    }

    /**
     * How the shutdown ended: {@code JOINED} if it joined without a stop request, {@code STOPPED} if
     * it joined after one, {@code ABANDONED} if it did not join.
     *
     * @return the outcome
     */
    public Outcome outcome() {
        return !joined ? Outcome.ABANDONED : stopRequested ? Outcome.STOPPED : Outcome.JOINED;
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
     * Whether the waits were cut short: by an interrupt of the thread blocked in
     * {@link Scopes#joinOrStop} (its interrupt status is then set), or by a stop request on the
     * receiver of {@link Scopes#joinOrStopAsync}.
     *
     * @return {@code true} if the waits were cut short
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
     * The oldest listed work still running at the end, oldest first, at most the report's list limit
     * (see {@link CountingScope#outstanding()} for what is listed; empty if joined).
     *
     * @return the oldest listable work still running
     */
    public List<OutstandingWork> stillRunning() {
        return outstanding.oldest();
    }

    /**
     * What was still running at the end: the oldest listed work and counts of all of it (empty if joined).
     *
     * @return the bounded summary of the work left
     */
    public OutstandingSummary outstanding() {
        return outstanding;
    }

    /**
     * Operations still associated at the end that are not in {@link #stillRunning()}: unnamed work
     * spawned without capture, and listed work beyond the list limit.
     *
     * @return the count of associated operations not in {@link #stillRunning()}
     */
    public long unlisted() {
        return Math.max(0L, remaining - stillRunning().size());
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
        sb.append(outstanding.lines(OutstandingSummary.DEFAULT_FRAMES, OutstandingSummary.APPLICATION_FRAMES));
        return sb.toString();
    }
}
