package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.internal.Durations;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.Jfr;
import dev.senders.internal.SharedTimer;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The shutdown sequence as a sender ({@link Scopes#joinOrStopAsync}): on {@code start}, closes the
 * scope and starts its join; at the grace deadline requests stop on the scope; at the stop
 * deadline gives up; completes with the {@link ShutdownReport} when the join completes or a
 * deadline gives up, whichever comes first. A stop request on the receiver cuts it short: stop is
 * requested on the scope at once (on the requesting thread) and the report is delivered then.
 * Multi-shot: each connect is a shutdown of its own (closing and joining a closed scope again
 * changes nothing).
 *
 * <p>Threads: the value is delivered on the thread that ended the scope's last work (a join in
 * time), the timer thread (the stop deadline), or the thread that requested stop on the receiver.
 * The deadlines run on the library's timer; the stop request at the grace deadline runs on the
 * receiver's scheduler when its env has one (so {@code syncWait} runs it on the waiting thread),
 * else on a daemon thread of its own, never on the timer thread: a stop callback that blocks
 * cannot delay the stop deadline.
 */
final class JoinOrStop implements Sender<ShutdownReport> {

    private final CountingScope scope;
    private final Duration grace;
    private final Duration stopTimeout;
    private final int listLimit;
    private final @Nullable Consumer<? super ShutdownReport> onGrace;

    JoinOrStop(CountingScope scope, Duration grace, Duration stopTimeout, int listLimit,
            @Nullable Consumer<? super ShutdownReport> onGrace) {
        this.scope = scope;
        this.grace = grace;
        this.stopTimeout = stopTimeout;
        this.listLimit = listLimit;
        this.onGrace = onGrace;
    }

    @Override
    public OperationState connect(Receiver<? super ShutdownReport> receiver) {
        return new Op(this, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public String toString() {
        return "joinOrStop(" + scope.name() + ", grace " + Durations.format(Durations.saturatedNanos(grace))
                + ", stop timeout " + Durations.format(Durations.saturatedNanos(stopTimeout)) + ")";
    }

    /**
     * One shutdown.
     */
    static final class Op implements OperationState, Runnable {
        /*
         * state is the one word every event races on: NEW -> GRACE at start,
         * GRACE -> STOPPING by the grace timer (which then arms the stop timer and hands the
         * stop request on), and GRACE|STOPPING -> DONE by the first of: the join's value, the
         * stop timer, a stop request on the receiver. Only the thread that moves the word to
         * DONE builds the report and completes the receiver. remainingAtGrace is
         * written before the GRACE -> STOPPING CAS, which publishes it to the finisher that
         * reads STOPPING. A timer armed after the operation ended is cancelled by the thread
         * that armed it (it re-reads the state after publishing the task); a timer task that still runs
         * finds DONE and does nothing.
         */

        private static final int NEW = 0, GRACE = 1, STOPPING = 2, DONE = 3;

        private final JoinOrStop spec;
        private final Receiver<? super ShutdownReport> downstream;
        /** Stops our join's waiter when the shutdown gives up, so no waiter stays linked to the scope. */
        private final InplaceStopSource joinStop = new InplaceStopSource();
        private volatile int state;
        private long t0;
        private long remainingAtGrace;
        private volatile @Nullable StopCallback downstreamStop;
        private volatile @Nullable Future<?> timer;

        Op(JoinOrStop spec, Receiver<? super ShutdownReport> downstream) {
            this.spec = spec;
            this.downstream = downstream;
        }

        @Override
        public void start() {
            if (!STATE.compareAndSet(this, NEW, GRACE)) {
                throw ImmediateOperation.startedTwice(this);
            }
            t0 = SharedTimer.nanoTime();
            OperationState join;
            try {
                spec.scope.close();
                join = spec.scope.join().connect(new JoinReceiver(this));
                downstreamStop = downstream.env().stopToken().onStop(this::cutShort);
            } catch (RuntimeException | Error e) {
                if (STATE.compareAndSet(this, GRACE, DONE)) {
                    closeDownstreamStop();
                    Signals.setError(downstream, e);
                    return;
                }
                throw e;
            }
            if (state != GRACE) {
                closeDownstreamStop(); // cut short during the registration: the finisher saw no callback yet
                return;
            }
            join.start();
            if (state == GRACE) {
                arm(this, Durations.saturatedNanos(spec.grace));
            }
        }

        private void arm(Runnable task, long delayNanos) {
            Future<?> f = SharedTimer.schedule(task, Math.max(0L, delayNanos));
            timer = f;
            if (state == DONE) {
                f.cancel(false);
            }
        }

        /** The timer: the grace deadline (state GRACE), else the stop deadline (state STOPPING). */
        @Override
        public void run() {
            int s = state;
            if (s == GRACE) {
                graceOver();
            } else if (s == STOPPING && STATE.compareAndSet(this, STOPPING, DONE)) {
                cancelTimer(); // this task, when the timer runs it; the queued one, when called early
                ShutdownReport r = report(false, true, false, remainingAtGrace);
                Jfr.joinDeadline(spec.scope.name(), "stop", SharedTimer.nanoTime() - t0, r.remaining(),
                        names(r.outstanding()));
                complete(r);
            }
        }

        private void graceOver() {
            long atGrace = spec.scope.count();
            remainingAtGrace = atGrace;
            if (!STATE.compareAndSet(this, GRACE, STOPPING)) {
                return;
            }
            if (Jfr.joinEventsEnabled() || spec.onGrace != null) {
                OutstandingSummary now = OutstandingSummary.of(spec.scope.core(), spec.listLimit);
                Jfr.joinDeadline(spec.scope.name(), "grace", SharedTimer.nanoTime() - t0, atGrace, names(now));
                if (spec.onGrace != null) {
                    try {
                        spec.onGrace.accept(new ShutdownReport(spec.scope.name(), false, false, false, spec.grace,
                                spec.stopTimeout, Duration.ofNanos(SharedTimer.nanoTime() - t0), atGrace, now.total(),
                                spec.scope.state(), now));
                    } catch (RuntimeException | Error e) {
                        Hooks.onErrorDropped(e);
                    }
                }
            }
            cancelTimer(); // the grace task: this one, or still queued when called early
            arm(this, Durations.saturatedNanos(spec.stopTimeout));
            requestStopElsewhere();
        }

        /** The scope's stop request, off the timer thread: on the receiver's scheduler, else on a thread of its own. */
        private void requestStopElsewhere() {
            Scheduler scheduler = downstream.env().scheduler().orElse(null);
            if (scheduler != null) {
                try {
                    scheduler.schedule().connect(new StopRequest(this)).start();
                    return;
                } catch (RuntimeException e) {
                    // a scheduler that refuses: fall back to a thread of our own
                }
            }
            stopOnOwnThread();
        }

        void stopOnOwnThread() {
            if (spec.scope.stopToken().stopRequested()) {
                return;
            }
            Thread t = new Thread(this::requestScopeStop, "senders-stop-" + spec.scope.name());
            t.setDaemon(true);
            t.start();
        }

        void requestScopeStop() {
            try {
                spec.scope.requestStop();
            } catch (RuntimeException | Error e) {
                Hooks.onErrorDropped(e);
            }
        }

        /** A stop request on the receiver: stop the scope here and now, and report. */
        private void cutShort() {
            int s;
            do {
                s = state;
                if (s != GRACE && s != STOPPING) {
                    return;
                }
            } while (!STATE.compareAndSet(this, s, DONE));
            cancelTimer();
            long atGrace = s == STOPPING ? remainingAtGrace : spec.scope.count();
            requestScopeStop();
            boolean joined = spec.scope.state() == ScopeState.JOINED;
            complete(report(joined, true, true, atGrace));
        }

        void joined() {
            int s;
            do {
                s = state;
                if (s != GRACE && s != STOPPING) {
                    return; // gave up already (or cut short): the report is out
                }
            } while (!STATE.compareAndSet(this, s, DONE));
            cancelTimer();
            complete(report(true, s == STOPPING, false, s == STOPPING ? remainingAtGrace : 0L));
        }

        void joinFailed(Throwable e) {
            int s;
            do {
                s = state;
                if (s != GRACE && s != STOPPING) {
                    Hooks.onErrorDropped(e);
                    return;
                }
            } while (!STATE.compareAndSet(this, s, DONE));
            cancelTimer();
            joinStop.requestStop();
            closeDownstreamStop();
            Signals.setError(downstream, e);
        }

        private void cancelTimer() {
            Future<?> f = timer;
            if (f != null) {
                f.cancel(false);
            }
        }

        private ShutdownReport report(boolean joined, boolean stopRequested, boolean cutShort, long atGrace) {
            Duration elapsed = Duration.ofNanos(SharedTimer.nanoTime() - t0);
            OutstandingSummary left = joined ? OutstandingSummary.empty(spec.scope.name(), spec.listLimit)
                    : OutstandingSummary.of(spec.scope.core(), spec.listLimit);
            return new ShutdownReport(spec.scope.name(), joined, stopRequested, cutShort, spec.grace, spec.stopTimeout,
                    elapsed, atGrace, left.total(), spec.scope.state(), left);
        }

        /** Unlinks our join's waiter (if still waiting), deregisters from the receiver's token, completes. */
        private void complete(ShutdownReport r) {
            joinStop.requestStop();
            closeDownstreamStop();
            Signals.setValue(downstream, r);
        }

        private void closeDownstreamStop() {
            StopCallback cb = downstreamStop;
            if (cb != null) {
                cb.close();
            }
        }

        Env joinEnv() {
            return Env.of(Query.STOP_TOKEN, joinStop.token());
        }

        @Override
        public String toString() {
            return spec.toString();
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), Op.class, "state", int.class);
    }

    /** The JFR event's list: the shown work, then what is not shown. */
    static String names(OutstandingSummary s) {
        StringBuilder sb = new StringBuilder();
        for (OutstandingWork w : s.oldest()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(w);
        }
        if (s.notShown() > 0) {
            sb.append(sb.length() == 0 ? "" : ", ").append("and ").append(s.notShown()).append(" more");
        }
        return sb.toString();
    }

    /** Our join's receiver: a value ends the shutdown; stopped is our own unlinking. */
    private static final class JoinReceiver implements Receiver<Void> {
        private final Op op;
        private final Env env;

        JoinReceiver(Op op) {
            this.op = op;
            this.env = op.joinEnv();
        }

        @Override
        public void setValue(@Nullable Void value) {
            op.joined();
        }

        @Override
        public void setError(Throwable error) {
            op.joinFailed(error);
        }

        @Override
        public void setStopped() {
            // only our own joinStop stops it, after the report is out
        }

        @Override
        public Env env() {
            return env;
        }
    }

    /** Runs the scope's stop request where the receiver's scheduler runs it; falls back to a thread of its own. */
    private static final class StopRequest implements Receiver<Void> {
        private final Op op;

        StopRequest(Op op) {
            this.op = op;
        }

        @Override
        public void setValue(@Nullable Void value) {
            op.requestScopeStop();
        }

        @Override
        public void setError(Throwable error) {
            op.stopOnOwnThread();
        }

        @Override
        public void setStopped() {
            op.stopOnOwnThread();
        }

        @Override
        public Env env() {
            return Env.empty();
        }
    }
}
