package dev.senders.scope;

import dev.senders.Sender;
import dev.senders.StopToken;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link SimpleCountingScope} with a stop source ({@code counting_scope}, P3149R6
 * [exec.counting.scope]).
 *
 * <p>Its token's {@link AsyncScopeToken#wrap wrap} is {@code stopWhen(sender, scopeStopToken)}:
 * work associated through {@link Scopes#nest}, {@link Scopes#spawn} or {@link Scopes#spawnFuture}
 * sees a stop token that fires when either its own receiver's token or the scope's stop source
 * fires. {@link #requestStop()} therefore reaches all associated work, present and future. The
 * state machine, the leak report and the error routing are those of {@link SimpleCountingScope}.
 */
public final class CountingScope {

    private final ScopeCore core;

    /** A scope in the {@code UNUSED} state whose spawn errors go to {@code Hooks.onErrorDropped}. */
    public CountingScope() {
        this.core = newCore(null);
    }

    /**
     * A scope whose spawned work's errors go to {@code errorHandler} (called on the failing thread).
     *
     * @param errorHandler receives the errors of spawned work
     */
    public CountingScope(Consumer<? super Throwable> errorHandler) {
        this.core = newCore(Objects.requireNonNull(errorHandler, "errorHandler"));
    }

    private ScopeCore newCore(Consumer<? super Throwable> handler) {
        ScopeCore c = new ScopeCore("CountingScope", true, handler);
        ScopeCore.CLEANER.register(this, new ScopeCore.LeakCheck(c));
        return c;
    }

    /**
     * The token that associates (and stop-wraps) work with this scope; the same object on every call.
     *
     * @return this scope's token
     */
    public AsyncScopeToken getToken() {
        return core;
    }

    /** See {@link SimpleCountingScope#close()}. */
    public void close() {
        core.close();
    }

    /**
     * See {@link SimpleCountingScope#join()}.
     *
     * @return a sender that completes once the scope is joined
     */
    public Sender<Void> join() {
        return core.join();
    }

    /**
     * Requests stop on the scope's stop source: every associated operation, and every operation
     * associated later, sees its stop token fire. Callbacks run on the calling thread. Does not
     * close the scope.
     */
    public void requestStop() {
        core.stopSource.requestStop();
    }

    /**
     * The scope's own stop token (fired by {@link #requestStop()}).
     *
     * @return the stop token {@link #requestStop()} fires
     */
    public StopToken stopToken() {
        return core.stopSource.token();
    }

    /**
     * See {@link SimpleCountingScope#state()}.
     *
     * @return the current state
     */
    public ScopeState state() {
        return core.state();
    }

    /**
     * See {@link SimpleCountingScope#count()}.
     *
     * @return the number of associated operations
     */
    public long count() {
        return core.count();
    }

    /**
     * See {@link SimpleCountingScope#errorCount()}.
     *
     * @return the number of spawned operations that failed
     */
    public long errorCount() {
        return core.errorCount();
    }

    @Override
    public String toString() {
        return core.name() + "[" + state() + ", count=" + count() + "]";
    }
}
