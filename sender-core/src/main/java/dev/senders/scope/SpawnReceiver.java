package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.internal.GuardedReceiver;
import dev.senders.internal.Signals;
import java.util.function.Consumer;

/**
 * The receiver of {@link Scopes#spawn} ({@code spawn-receiver}, P3149R6 [exec.spawn]), and the
 * whole per-spawn allocation of the library: one object holding the token and the contract guard
 * (24 bytes with compressed oops). The spawned operation is not retained by it: once started, the
 * operation lives only as long as the work itself references it.
 *
 * <p>The guard ({@link GuardedReceiver}) is what keeps a broken sender from corrupting the count:
 * a second completion is reported to {@link Hooks#onErrorDropped} as a
 * {@code ProtocolViolationException} and releases nothing (else it would release another
 * operation's association, and a join could complete under running work); a completion before
 * {@code start} becomes that violation, routed as the work's error, and the work is not started.
 *
 * <p>A value is discarded (P3149 wants none; Java cannot check it). An error is routed (see
 * {@link Scopes#spawn}) and counted. Every completion ends with {@code token.dissociate()}, after
 * the error handler has returned: a join cannot complete before the handler saw the error.
 */
class SpawnReceiver extends GuardedReceiver<Object> {

    final AsyncScopeToken token;

    SpawnReceiver(AsyncScopeToken token) {
        this.token = token;
    }

    @Override
    protected final String algorithm() {
        return "spawn";
    }

    @Override
    protected final void onValue(Object value) {
        token.dissociate();
    }

    @Override
    protected final void onStopped() {
        token.dissociate();
    }

    @Override
    protected final void onError(Throwable error) {
        try {
            route(error);
        } finally {
            token.dissociate();
        }
    }

    private void route(Throwable error) {
        Consumer<? super Throwable> envHandler = null;
        try {
            envHandler = envHandler();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            error.addSuppressed(t);
        }
        if (token instanceof ScopeCore) {
            ((ScopeCore) token).onSpawnError(error, envHandler);
        } else if (envHandler != null) {
            try {
                envHandler.accept(error);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (t != error) {
                    t.addSuppressed(error);
                }
                Hooks.onErrorDropped(t);
            }
        } else {
            Hooks.onErrorDropped(error);
        }
    }

    Consumer<? super Throwable> envHandler() {
        return null;
    }

    @Override
    public Env env() {
        return token instanceof ScopeCore ? ((ScopeCore) token).spawnEnv : Env.empty();
    }

    /** The variant for a caller-supplied env: one more field, allocated only when an env is given. */
    static final class WithEnv extends SpawnReceiver {
        private final Env env;

        WithEnv(AsyncScopeToken token, Env env) {
            super(token);
            this.env = env;
        }

        @Override
        Consumer<? super Throwable> envHandler() {
            return env.get(Scopes.SPAWN_ERROR_HANDLER);
        }

        @Override
        public Env env() {
            return env;
        }
    }
}
