package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.CallbackNode;
import dev.senders.internal.signal.OwnEnvReceiver;
import dev.senders.internal.signal.Signals;
import dev.senders.scope.internal.SpawnedWork;
import dev.senders.internal.signal.StopNode;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The receiver of {@link Scopes#spawn} ({@code spawn-receiver}, P3149R6 [exec.spawn]), and the
 * whole per-spawn allocation of the library: one object holding the token and the contract guard
 * ({@link Stoppable} is also the work's stop token and its first registration on the scope's stop
 * source). The spawned operation is not retained by it: once started, the
 * operation lives only as long as the work itself references it.
 *
 * <p>A value is discarded (P3149 wants none; Java cannot check it). An error is routed (see
 * {@link Scopes#spawn}) and counted. Every completion ends with {@code token.dissociate()}, after
 * the error handler has returned: a join cannot complete before the handler saw the error.
 */
abstract class SpawnReceiver implements Receiver<Object> {
    /*
     * The guard.
     * The guard keeps a broken sender from corrupting the count, for one CAS per spawn.
     * - guard's bits 3..4 go PENDING -> COMPLETED by CAS at the first completion; a second
     *   completion finds it taken, is reported to Hooks.onErrorDropped as a
     *   ProtocolViolationException, and releases nothing (else it would release another
     *   operation's association, and a join could complete under running work).
     * - A completion during connect on the spawning thread (the usual way a sender
     *   completes before start) is recognised without an atomic: connecting holds the
     *   spawning thread until beginStart() clears it, and only that thread can see itself
     *   there. It sets EARLY; beginStart then reports the violation as the work's
     *   error, releases the association, and the work is not started. An early error is passed to
     *   Hooks.onErrorDropped at once, so it is not lost.
     * - A completion during connect on another thread is taken as the completion
     *   (it releases the association once); anything the operation signals after start is
     *   then a second completion, reported as above. The count stays exact either way; only the
     *   "before start" diagnosis needs the spawning thread, which is what keeps start
     *   free of a CAS.
     * - Bits 0..2 of guard are the StopNode registration state of Stoppable
     *   (always FREE in the other receivers): the guard's CASes preserve them, and the stop
     *   source's preserve the guard's bits.
     *
     * The subclass says which env the work sees: Plain the token's spawn env,
     * WithEnv a caller-supplied one, Stoppable itself (an OwnEnvReceiver).
     */

    private static final int PENDING = 0, COMPLETED = 1 << 3, EARLY = 2 << 3, GUARD_MASK = 3 << 3;

    final AsyncScopeToken token;
    private volatile int guard;
    /** The spawning thread until {@link #beginStart()}: a completion on it is a completion during connect. */
    private @Nullable Thread connecting;

    SpawnReceiver(AsyncScopeToken token) {
        this.token = token;
        this.connecting = Thread.currentThread();
    }

    /**
     * Called on the spawning thread once {@code connect} returned.
     *
     * @return {@code true} to start the operation; {@code false} if the sender completed during
     *         {@code connect} (reported as the work's error, association released)
     */
    final boolean beginStart() {
        connecting = null;
        if ((guard & GUARD_MASK) != EARLY) {   // EARLY is only ever set by this thread, during connect
            return true;
        }
        try {
            route(new ProtocolViolationException("spawn: the spawned sender completed during connect, before start"
                    + " (a sender must not complete before its operation is started)"));
        } finally {
            token.dissociate();
        }
        return false;
    }

    /**
     * Called on the spawning thread when {@code connect} threw: takes the completion, so that a
     * later signal of the discarded operation is a second completion (reported, releasing nothing).
     *
     * @return {@code true} if the association is still to be released by the caller; {@code false}
     *         if the sender completed during {@code connect} on another thread, which released it
     */
    final boolean abandonConnect() {
        connecting = null;
        for (;;) {
            int w = guard;
            if ((w & GUARD_MASK) == COMPLETED) {
                return false;
            }
            if (GUARD.compareAndSet(this, w, (w & ~GUARD_MASK) | COMPLETED)) {
                return true;
            }
        }
    }

    /**
     * True if this completion is the one; false if it is early (recorded; an early error is
     * reported at once) or a second one (reported, with its own error, if any, as suppressed).
     */
    private boolean enter(String signal, @Nullable Throwable error) {
        if (connecting == Thread.currentThread()) {
            if (claim(EARLY)) {
                if (error != null) {
                    Hooks.onErrorDropped(error); // an early error: reported now, never lost
                }
                return false;
            }
        } else if (claim(COMPLETED)) {
            return true;
        }
        Hooks.onErrorDropped(Signals.extraCompletion("spawn: the spawned sender called " + signal
                + " after it had already completed (a sender must deliver exactly one completion per start; the extra signal was ignored)", error));
        return false;
    }

    /** PENDING -> {@code to} in the guard bits, keeping the registration bits (one CAS when they are 0). */
    private boolean claim(int to) {
        if (GUARD.compareAndSet(this, PENDING, to)) {
            return true;
        }
        for (;;) {
            int w = guard;
            if ((w & GUARD_MASK) != PENDING) {
                return false;
            }
            if (GUARD.compareAndSet(this, w, w | to)) {
                return true;
            }
        }
    }

    /**
     * The operation's {@code start()} threw (on the spawning thread): the work's error, routed and
     * its association released, unless the work completed before it threw (then the exception is
     * reported to {@link Hooks#onErrorDropped}, never lost).
     */
    final void startThrew(Throwable t) {
        if (claim(COMPLETED)) {
            try {
                route(t);
            } finally {
                token.dissociate();
            }
        } else {
            Hooks.onErrorDropped(t);
        }
    }

    @Override
    public final void setValue(@Nullable Object value) {
        if (enter("setValue", null)) {
            token.dissociate();
        }
    }

    @Override
    public final void setStopped() {
        if (enter("setStopped", null)) {
            token.dissociate();
        }
    }

    @Override
    public final void setError(Throwable error) {
        Throwable e = error == null ? new NullPointerException("spawn: the spawned sender called setError(null)") : error;
        if (!enter("setError", e)) {
            return;
        }
        try {
            route(e);
        } finally {
            token.dissociate();
        }
    }

    /**
     * The token routes the error ({@link AsyncScopeToken#onSpawnError}: the library's scopes count
     * it and pick the handler); a token whose method throws anyway has that reported, never lost.
     */
    private void route(Throwable error) {
        SpawnedWork.routeError(token, error, env());
    }

    /** The receiver of work that sees the token's own spawn env. */
    static final class Plain extends SpawnReceiver {

        Plain(AsyncScopeToken token) {
            super(token);
        }

        /** The token's {@link AsyncScopeToken#spawnEnv()} (a {@code CountingScope}'s binds its stop token). */
        @Override
        public Env env() {
            return token.spawnEnv();
        }
    }

    /** The variant for a caller-supplied env: one more field, allocated only when an env is given. */
    static final class WithEnv extends SpawnReceiver {
        private final Env env;

        WithEnv(AsyncScopeToken token, Env env) {
            super(token);
            this.env = env;
        }

        @Override
        public Env env() {
            return env;
        }
    }

    /**
     * The receiver of work spawned with a token whose {@link AsyncScopeToken#spawnEnv()} carries an
     * {@link InplaceStopSource}'s token (a {@code CountingScope}'s, a {@code letAsyncScope}'s), and
     * the whole per-spawn allocation there too: the receiver is also its own env, that
     * env's stop token, and the first stop-callback registration made on it, linked into the
     * scope's stop source as a {@link StopNode} (no node object per registration). Work parked on
     * the scope's stop token therefore costs this object and nothing more.
     *
     * <p>Its env answers {@link Query#STOP_TOKEN} with {@code this} and forwards every other query
     * to the token's spawn env. As a token it reports the scope's stop ({@code stopRequested} reads
     * the scope's source); the first {@code onStop} takes the built-in registration (a CAS
     * {@code FREE -> REGISTERED} on the shared word claims it, then {@link StopNode.Host#link}
     * publishes it), any further one is an ordinary registration on the scope's token. {@link
     * #close()} deregisters the built-in one ({@link CallbackNode}'s protocol, as for the source's
     * own nodes). The token's spawn env must name the same stop token every time (the library's
     * scopes return one env object).
     */
    static final class Stoppable extends SpawnReceiver implements OwnEnvReceiver<Object>, StopToken, CallbackNode {
        private volatile @Nullable StopNode next;
        /** The callback of the built-in registration; cleared once it ran or was deregistered. */
        private @Nullable Runnable action;

        Stoppable(AsyncScopeToken token) {
            super(token);
        }

        /** The scope's stop token: linking host of the built-in registration. */
        @Override
        public StopNode.Host host() {
            return (StopNode.Host) token.spawnEnv().stopToken();
        }

        // ---- Env (this object): the token's spawn env, with this as its stop token

        @Override
        @SuppressWarnings("unchecked")
        public <V> @Nullable V get(Query<V> query) {
            return query == Query.STOP_TOKEN ? (V) this : token.spawnEnv().get(query);
        }

        @Override
        public StopToken stopToken() {
            return this;
        }

        // ---- StopToken: the scope's stop

        @Override
        public boolean stopRequested() {
            return host().stopRequested();
        }

        @Override
        public boolean stopPossible() {
            return true;
        }

        @Override
        public StopCallback onStop(Runnable callback) {
            Objects.requireNonNull(callback, "callback");
            if (StopNode.transition(this, FREE, REGISTERED)) {
                action = callback; // published to the stopper by link's CAS of the source's head
                host().link(this);
                return this;
            }
            return host().onStop(callback); // the built-in registration is taken: an ordinary one
        }

        /** Takes the built-in registration's callback (the stopper runs it; {@code close()} drops it). */
        @Override
        public @Nullable Runnable takeCallback() {
            Runnable a = action;
            action = null;
            return a;
        }

        // ---- StopNode

        @Override
        public int nodeWord() {
            return guardWord();
        }

        @Override
        public boolean casNodeWord(int expect, int update) {
            return casGuardWord(expect, update);
        }

        @Override
        public @Nullable StopNode nextNode() {
            return next;
        }

        @Override
        public void nextNode(@Nullable StopNode n) {
            NEXT.setRelease(this, n); // published by the push's CAS: see StopNode#nextNode(StopNode)
        }

        @Override
        public String toString() {
            return "spawn receiver of " + token;
        }
    }

    final int guardWord() {
        return guard;
    }

    final boolean casGuardWord(int expect, int update) {
        return GUARD.compareAndSet(this, expect, update);
    }

    private static final VarHandle GUARD = VarHandles.field(MethodHandles.lookup(), SpawnReceiver.class, "guard", int.class);
    private static final VarHandle NEXT = VarHandles.field(MethodHandles.lookup(), Stoppable.class, "next", StopNode.class);
}
