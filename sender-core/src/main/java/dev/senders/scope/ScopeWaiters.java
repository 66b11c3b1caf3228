package dev.senders.scope;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Jfr;
import dev.senders.internal.VarHandles;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The operations that wait on one of a scope's one-shot signals ({@link ScopeCore} owns the
 * signals and the word bits that arm them): a join waits for "joined", a {@code whenIdle} wait for
 * "the count reached zero", and a {@link Scopes#spawnWhenAvailable} producer for "room was made".
 * Each is made by its factory ({@link #join}, {@link #whenIdle}, {@link #spawnWhenAvailable}).
 * A waiter completes its receiver exactly once: with the signal's outcome, or stopped when its
 * receiver's stop token fires first; a stopped waiter unlinks itself from the scope, so abandoned
 * waiters retain nothing.
 */
final class ScopeWaiters {

    private ScopeWaiters() {
    }

    /** The operation of {@code join()}: completes when the scope is joined (it starts the join). */
    static OperationState join(ScopeCore core, Receiver<? super Void> receiver) {
        return new Join(core, receiver);
    }

    /** The operation of {@code whenIdle()}: completes when the count was zero after its start. */
    static OperationState whenIdle(ScopeCore core, Receiver<? super Void> receiver) {
        return new Idle(core, receiver);
    }

    /** The operation of {@link Scopes#spawnWhenAvailable}: spawns {@code work} once the scope has room. */
    static OperationState spawnWhenAvailable(Sender<?> work, ScopeCore core, Receiver<? super Boolean> receiver) {
        return new ForRoom(work, core, receiver);
    }

    /**
     * A join or a {@code whenIdle} wait: waits for a one-shot signal of the scope (joined; the
     * current epoch's zero) and completes with a value, on its receiver's scheduler if it has one
     * and waited, or stopped.
     *
     * <p>State word {@code state}: {@code NEW -> STARTING} at {@code start} (a second start
     * throws); {@code STARTING -> WAITING} when {@code start} has registered (and, for a join,
     * moved the scope); then {@code WAITING -> DONE} by one CAS, taken either by the signal's
     * callback ({@link #run}) or by the receiver's stop callback ({@link #stop}); the winner
     * completes the receiver, the loser does nothing. A signal that comes while {@code start}
     * still runs (on any thread) only marks {@code STARTING -> SIGNALLED_IN_START}, and
     * {@code start} completes the receiver inline when it ends: a wait never completes on another
     * thread before its own start has finished with the scope. A stop may complete it from
     * {@code STARTING} or {@code WAITING}.
     */
    abstract static sealed class SignalWait implements OperationState, Runnable permits Join, Idle {
        /*
         * The stop winner deregisters from the signal (the node is unlinked, the operation no
         * longer reachable from the scope); the signal winner deregisters from the receiver's
         * token. A wait that finds its signal's outcome already true at start completes at once,
         * inline, never through the signal, whose firing may still be running on another thread.
         */
        private static final int NEW = 0, STARTING = 1, WAITING = 2, SIGNALLED_IN_START = 3, DONE = 4;

        final ScopeCore core;
        final Receiver<? super Void> receiver;
        private volatile int state;
        /** Volatile: start's write then read of {@code state} and stop's CAS then read of this are a Dekker pair. */
        private volatile @Nullable StopCallback onSignal;
        /** Written by start before its STARTING -> WAITING (or SIGNALLED_IN_START) hand-over, read after it. */
        private @Nullable StopCallback onStop;

        SignalWait(ScopeCore core, Receiver<? super Void> receiver) {
            this.core = core;
            this.receiver = receiver;
        }

        /** What a second start's error names: {@code ".join()"} or {@code ".whenIdle()"}. */
        abstract String operationName();

        /** Whether the awaited outcome holds now (read once at start, before registering). */
        abstract boolean reachedNow();

        /** Called once a wait is sure to register (not done, not stopped yet). */
        void waitStarted() {
        }

        /** Called once by whichever completes the wait (value or stopped), after it won. */
        void waitEnded() {
        }

        /**
         * Registers this wait on the scope's signal: its registration, or null when nothing was
         * registered because the outcome holds now. May run {@link #run} inline.
         */
        abstract @Nullable StopCallback register();

        /** After the registration: acts on the scope if needed; whether the outcome holds now. */
        abstract boolean reachedAfterRegistering(@Nullable StopCallback registration);

        @Override
        public final void start() {
            if (!STATE.compareAndSet(this, NEW, STARTING)) {
                throw ImmediateOperation.startedTwice(core.name() + operationName() + "'s operation");
            }
            if (reachedNow()) {
                state = DONE;
                Signals.setValue(receiver, null);
                return;
            }
            waitStarted();
            StopToken token = receiver.env().stopToken();
            if (token.stopPossible()) {
                onStop = token.onStop(this::stop); // runs inline if stop was already requested
                if (state == DONE) {
                    return; // stopped before it waited: the scope is not touched
                }
            }
            StopCallback reg = register();
            onSignal = reg;
            if (state == DONE) {
                if (reg != null) {
                    reg.close(); // stopped meanwhile: a stop on another thread may have missed reg
                }
                return;
            }
            boolean done = reachedAfterRegistering(reg);
            for (;;) {
                int s = state;
                if (s == STARTING && !done) {
                    if (STATE.compareAndSet(this, STARTING, WAITING)) {
                        return; // waits: run() or stop() completes it
                    }
                } else if (s == STARTING || s == SIGNALLED_IN_START) {
                    if (STATE.compareAndSet(this, s, DONE)) {
                        break;
                    }
                } else {
                    return; // DONE: a stop completed it
                }
            }
            waitEnded();
            releaseStop();
            Signals.setValue(receiver, null);
        }

        /** The signal fired: the scope is joined, or its count reached zero. */
        @Override
        public final void run() {
            for (;;) {
                int s = state;
                if (s == STARTING) {
                    if (STATE.compareAndSet(this, STARTING, SIGNALLED_IN_START)) {
                        return; // start completes it when it ends
                    }
                } else if (s == WAITING) {
                    if (STATE.compareAndSet(this, WAITING, DONE)) {
                        break;
                    }
                } else {
                    return; // stopped first
                }
            }
            waitEnded();
            releaseStop();
            completeAfterWaiting();
        }

        /** The receiver's stop request: complete stopped at once and leave the waiters. */
        private void stop() {
            for (;;) {
                int s = state;
                if (s != STARTING && s != WAITING) {
                    return; // signalled (or signalled during start) first
                }
                if (STATE.compareAndSet(this, s, DONE)) {
                    break;
                }
            }
            StopCallback reg = onSignal;
            if (reg != null) {
                onSignal = null;
                reg.close(); // unlinks this wait from the scope
            }
            waitEnded();
            Signals.setStopped(receiver);
        }

        private void releaseStop() {
            StopCallback cb = onStop;
            if (cb != null) {
                onStop = null;
                cb.close();
            }
        }

        /**
         * A wait that waited completes on its receiver's scheduler, if it has one.
         *
         * @see <a href="https://wg21.link/P3149">P3149, join's completion scheduler</a>
         */
        private void completeAfterWaiting() {
            Optional<Scheduler> sch;
            try {
                sch = receiver.env().scheduler();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(receiver, t);
                return;
            }
            if (sch.isEmpty()) {
                Signals.setValue(receiver, null);
                return;
            }
            try {
                Connect.schedule(sch.get(), new Receiver<Void>() {
                    @Override
                    public void setValue(@Nullable Void v) {
                        Signals.setValue(receiver, null);
                    }

                    @Override
                    public void setError(Throwable e) {
                        Signals.setError(receiver, e);
                    }

                    @Override
                    public void setStopped() {
                        Signals.setStopped(receiver);
                    }

                    @Override
                    public Env env() {
                        return receiver.env();
                    }
                }).start();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(receiver, t);
            }
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), SignalWait.class, "state", int.class);
    }

    /**
     * A join: registers on the scope's "joined" signal, then starts the join (the scope moves to
     * a joining state, or to JOINED at a zero count); emits the JFR join events of a public scope.
     */
    static final class Join extends SignalWait {
        /** A begun JFR JoinEnd event, or null. */
        private @Nullable Object jfr;

        Join(ScopeCore core, Receiver<? super Void> receiver) {
            super(core, receiver);
        }

        @Override
        String operationName() {
            return ".join()";
        }

        /** Joined already: the state never leaves JOINED. */
        @Override
        boolean reachedNow() {
            return core.isJoined();
        }

        @Override
        void waitStarted() {
            if (core.emitsJoinEvents() && Jfr.joinEventsEnabled()) {
                jfr = Jfr.joinStarted(core.name(), core.count());
            }
        }

        @Override
        void waitEnded() {
            Jfr.joinEnded(jfr);
        }

        @Override
        @Nullable StopCallback register() {
            return core.joinedSignal().token().onStop(this); // inline if already joined
        }

        /*
         * The scope joined before this start ended (its word never leaves JOINED): complete in
         * start, inline, whichever thread's firing of the signal reaches run() (it then finds DONE).
         */
        @Override
        boolean reachedAfterRegistering(@Nullable StopCallback registration) {
            core.startJoin();
            return core.isJoined();
        }
    }

    /** A {@code whenIdle} wait: registers on the current epoch's idle signal. */
    static final class Idle extends SignalWait {
        Idle(ScopeCore core, Receiver<? super Void> receiver) {
            super(core, receiver);
        }

        @Override
        String operationName() {
            return ".whenIdle()";
        }

        @Override
        boolean reachedNow() {
            return core.count() == 0;
        }

        @Override
        @Nullable StopCallback register() {
            return core.awaitIdle(this); // null: idle now, nothing registered
        }

        @Override
        boolean reachedAfterRegistering(@Nullable StopCallback registration) {
            return registration == null;
        }
    }

    /**
     * A {@link Scopes#spawnWhenAvailable} producer: tries to associate with the scope; while the
     * scope is full it waits on the scope's capacity signal and tries again each time room is
     * made. Ends with {@code true} (spawned), {@code false} (the scope closed first) or stopped.
     *
     * <p>One state word: {@code NEW -> ATTEMPTING} at {@code start} (a second start throws). The
     * thread that holds {@code ATTEMPTING} runs the attempt loop: associate; on room, spawn and
     * finish; on a closed scope, finish with {@code false}; on a full one, register with the scope
     * ({@code awaitCapacity}) and hand over with {@code ATTEMPTING -> WAITING}. A wake-up
     * ({@link #run}) takes {@code WAITING -> ATTEMPTING} and runs the loop on its own thread; one
     * that comes while another thread attempts only sets {@code WOKEN}, which makes the hand-over
     * CAS fail, so the attempting thread tries again instead of waiting for a signal that already
     * came. A stop takes {@code WAITING -> DONE} (and completes stopped), or sets {@code STOPPED}
     * on an attempt in progress, which finishes stopped unless it associates first. Exactly one
     * thread finishes.
     */
    static final class ForRoom implements OperationState, Runnable {

        private static final int NEW = 0, ATTEMPTING = 1, WAITING = 2, DONE = 3;
        private static final int PHASE = 3, WOKEN = 4, STOPPED = 8;

        private final Sender<?> work;
        private final ScopeCore core;
        private final Receiver<? super Boolean> receiver;
        private volatile int state;
        /** The registration on the scope's capacity signal while waiting; written before the hand-over. */
        private @Nullable StopCallback waiting;
        /** The registration on the receiver's stop token; written by start before the first hand-over. */
        private @Nullable StopCallback onStop;

        ForRoom(Sender<?> work, ScopeCore core, Receiver<? super Boolean> receiver) {
            this.work = work;
            this.core = core;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            if (!STATE.compareAndSet(this, NEW, ATTEMPTING)) {
                throw ImmediateOperation.startedTwice(core.name() + " spawnWhenAvailable's operation");
            }
            StopToken token = receiver.env().stopToken();
            if (token.stopPossible()) {
                onStop = token.onStop(this::stop); // inline if already requested: sets STOPPED
            }
            attempt();
        }

        /** Room may have been made (the scope's capacity signal fired). */
        @Override
        public void run() {
            for (;;) {
                int s = state;
                if (s == WAITING) {
                    if (STATE.compareAndSet(this, WAITING, ATTEMPTING)) {
                        waiting = null; // the registration that fired: nothing to unlink
                        attempt();
                        return;
                    }
                } else if ((s & PHASE) == ATTEMPTING) {
                    if (STATE.compareAndSet(this, s, s | WOKEN)) {
                        return; // the attempting thread tries again
                    }
                } else {
                    return; // DONE
                }
            }
        }

        private void stop() {
            for (;;) {
                int s = state;
                if (s == WAITING) {
                    if (STATE.compareAndSet(this, WAITING, DONE)) {
                        StopCallback reg = waiting;
                        waiting = null;
                        if (reg != null) {
                            reg.close(); // unlinks this producer from the scope
                        }
                        Signals.setStopped(receiver);
                        return;
                    }
                } else if ((s & PHASE) == ATTEMPTING) {
                    if (STATE.compareAndSet(this, s, s | STOPPED)) {
                        return; // the attempting thread finishes stopped
                    }
                } else {
                    return;
                }
            }
        }

        /** Runs while this thread holds ATTEMPTING. */
        private void attempt() {
            for (;;) {
                int s = state;
                if ((s & STOPPED) != 0) {
                    finish(null);
                    return;
                }
                if ((s & WOKEN) != 0 && !STATE.compareAndSet(this, s, ATTEMPTING)) {
                    continue; // a stop came meanwhile: look again
                }
                int r = core.associate();
                if (r == ScopeCore.ASSOCIATED) {
                    try {
                        Scopes.spawnAssociated(work, core);
                    } catch (Throwable t) { // connect threw: the association is released already
                        Signals.throwIfFatal(t);
                        finishWithError(t);
                        return;
                    }
                    finish(Boolean.TRUE);
                    return;
                }
                if (r == ScopeCore.REFUSED_CLOSED) {
                    core.refused(r);
                    finish(Boolean.FALSE);
                    return;
                }
                StopCallback reg = core.awaitCapacity(this); // may call run() inline: sets WOKEN
                if (reg == null) {
                    continue; // room, or closed, already: try again
                }
                waiting = reg;
                if (STATE.compareAndSet(this, ATTEMPTING, WAITING)) {
                    return; // run() or stop() takes it from here
                }
                waiting = null;
                reg.close(); // woken or stopped meanwhile
            }
        }

        private void releaseStop() {
            StopCallback cb = onStop;
            if (cb != null) {
                onStop = null;
                cb.close();
            }
        }

        /** {@code spawned}: TRUE or FALSE for a value, null for stopped. */
        private void finish(@Nullable Boolean spawned) {
            state = DONE;
            releaseStop();
            if (spawned == null) {
                Signals.setStopped(receiver);
            } else {
                Signals.setValue(receiver, spawned);
            }
        }

        private void finishWithError(Throwable t) {
            state = DONE;
            releaseStop();
            Signals.setError(receiver, t);
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), ForRoom.class, "state", int.class);
    }
}
