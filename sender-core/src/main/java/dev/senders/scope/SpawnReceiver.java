package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The receiver of {@link Scopes#spawn} ({@code spawn-receiver}, P3149R6 [exec.spawn]), and the
 * whole per-spawn allocation of the library: one object holding the token and the contract guard
 * (24 bytes with compressed oops). The spawned operation is not retained by it: once started, the
 * operation lives only as long as the work itself references it.
 *
 * <p>A value is discarded (P3149 wants none; Java cannot check it). An error is routed (see
 * {@link Scopes#spawn}) and counted. Every completion ends with {@code token.dissociate()}, after
 * the error handler has returned: a join cannot complete before the handler saw the error.
 *
 * <h2>Implementation notes: the guard</h2>
 * The guard keeps a broken sender from corrupting the count, for one CAS per spawn.
 * <ul>
 * <li>{@code guard} goes {@code PENDING -> COMPLETED} by CAS at the first completion; a second
 *     completion finds it taken, is reported to {@link Hooks#onErrorDropped} as a
 *     {@code ProtocolViolationException}, and releases nothing (else it would release another
 *     operation's association, and a join could complete under running work).
 * <li>A completion <em>during {@code connect} on the spawning thread</em> (the usual way a sender
 *     completes before start) is recognised without an atomic: {@code connecting} holds the
 *     spawning thread until {@link #beginStart()} clears it, and only that thread can see itself
 *     there. It sets {@code EARLY}; {@code beginStart} then reports the violation as the work's
 *     error, releases the association, and the work is not started. An early error is passed to
 *     {@code Hooks.onErrorDropped} at once, so it is not lost.
 * <li>A completion during {@code connect} on <em>another</em> thread is taken as the completion
 *     (it releases the association once); anything the operation signals after {@code start} is
 *     then a second completion, reported as above. The count stays exact either way; only the
 *     "before start" diagnosis needs the spawning thread, which is what keeps {@code start}
 *     free of a CAS.
 * </ul>
 */
class SpawnReceiver implements Receiver<Object> {

    private static final int PENDING = 0, COMPLETED = 1, EARLY = 2;

    final AsyncScopeToken token;
    private volatile int guard;
    /** The spawning thread until {@link #beginStart()}: a completion on it is a completion during connect. */
    private Thread connecting;

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
        if (guard != EARLY) {   // EARLY is only ever set by this thread, during connect
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
        return (int) GUARD.getAndSet(this, COMPLETED) != COMPLETED;
    }

    /** True if this completion is the one; false if it is early (recorded) or a second one (reported). */
    private boolean enter(String signal) {
        if (connecting == Thread.currentThread()) {
            if (GUARD.compareAndSet(this, PENDING, EARLY)) {
                return false;
            }
        } else if (GUARD.compareAndSet(this, PENDING, COMPLETED)) {
            return true;
        }
        Hooks.onErrorDropped(new ProtocolViolationException("spawn: the spawned sender called " + signal
                + " after it had already completed (a sender must deliver exactly one completion per start; the extra signal was ignored)"));
        return false;
    }

    @Override
    public final void setValue(Object value) {
        if (enter("setValue")) {
            token.dissociate();
        }
    }

    @Override
    public final void setStopped() {
        if (enter("setStopped")) {
            token.dissociate();
        }
    }

    @Override
    public final void setError(Throwable error) {
        Throwable e = error == null ? new NullPointerException("spawn: the spawned sender called setError(null)") : error;
        if (!enter("setError")) {
            if (guard == EARLY && connecting == Thread.currentThread()) {
                Hooks.onErrorDropped(e);   // an early error: reported now, never lost
            }
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
        Scopes.routeError(token, error, env());
    }

    /** The token's {@link AsyncScopeToken#spawnEnv()} (a {@code CountingScope}'s binds its stop token). */
    @Override
    public Env env() {
        return token.spawnEnv();
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

    private static final VarHandle GUARD;

    static {
        try {
            GUARD = MethodHandles.lookup().findVarHandle(SpawnReceiver.class, "guard", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
