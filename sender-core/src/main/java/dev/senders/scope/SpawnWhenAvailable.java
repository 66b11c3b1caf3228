package dev.senders.scope;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * The operation of {@link Scopes#spawnWhenAvailable}: tries to associate with the scope; while the
 * scope is full it waits on the scope's capacity signal and tries again each time room is made.
 * Ends with {@code true} (spawned), {@code false} (the scope closed first) or stopped.
 *
 * <h2>Implementation notes</h2>
 * One state word: {@code NEW -> ATTEMPTING} at {@code start} (a second start throws). The thread
 * that holds {@code ATTEMPTING} runs the attempt loop: associate; on room, spawn and finish; on a
 * closed scope, finish with {@code false}; on a full one, register with the scope
 * ({@code awaitCapacity}) and hand over with {@code ATTEMPTING -> WAITING}. A wake-up
 * ({@link #run}) takes {@code WAITING -> ATTEMPTING} and runs the loop on its own thread; one that
 * comes while another thread attempts only sets {@code WOKEN}, which makes the hand-over CAS fail,
 * so the attempting thread tries again instead of waiting for a signal that already came. A stop
 * takes {@code WAITING -> DONE} (and completes stopped), or sets {@code STOPPED} on an attempt in
 * progress, which finishes stopped unless it associates first. Exactly one thread finishes.
 */
final class SpawnWhenAvailable implements OperationState, Runnable {

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

    SpawnWhenAvailable(Sender<?> work, ScopeCore core, Receiver<? super Boolean> receiver) {
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

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), SpawnWhenAvailable.class, "state", int.class);
}
