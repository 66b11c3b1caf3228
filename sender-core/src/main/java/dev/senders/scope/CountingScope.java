package dev.senders.scope;

import dev.senders.Sender;
import dev.senders.StopToken;
import java.util.List;
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
 * state machine, the leak report, the error routing, names and the dump are those of
 * {@link SimpleCountingScope}. To shut one down with deadlines and a report of what was still
 * running, use {@link Scopes#joinOrStop(CountingScope, java.time.Duration, java.time.Duration)}.
 */
public final class CountingScope {

    private final ScopeCore core;

    /** A scope in the {@code UNUSED} state whose spawn errors go to {@code Hooks.onErrorDropped}; its name is generated. */
    public CountingScope() {
        this.core = newCore(null, null);
    }

    /**
     * A scope whose spawned work's errors go to {@code errorHandler} (called on the failing thread).
     *
     * @param errorHandler receives the errors of spawned work
     */
    public CountingScope(Consumer<? super Throwable> errorHandler) {
        this.core = newCore(null, Objects.requireNonNull(errorHandler, "errorHandler"));
    }

    /**
     * A named scope whose spawn errors go to {@code Hooks.onErrorDropped}. The name appears in
     * {@link #toString()}, leak reports, shutdown reports, {@link ScopeTrace}s and JFR events.
     *
     * @param name the scope's name
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public CountingScope(String name) {
        this.core = newCore(SimpleCountingScope.checkName(name), null);
    }

    /**
     * A named scope whose spawned work's errors go to {@code errorHandler} (called on the failing
     * thread, with a {@link ScopeTrace} naming the scope, and the work if named, suppressed by the error).
     *
     * @param name the scope's name
     * @param errorHandler receives the errors of work spawned into this scope
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public CountingScope(String name, Consumer<? super Throwable> errorHandler) {
        this.core = newCore(SimpleCountingScope.checkName(name), Objects.requireNonNull(errorHandler, "errorHandler"));
    }

    private ScopeCore newCore(String name, Consumer<? super Throwable> handler) {
        ScopeCore c = ScopeCore.forScope("CountingScope", name, true, handler);
        c.watch(this); // the leak check is registered at the first association
        return c;
    }

    /** The shared state machine (package-private: tests and {@link Scopes} read its diagnostics). */
    ScopeCore core() {
        return core;
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

    /**
     * See {@link SimpleCountingScope#refusedCount()}.
     *
     * @return the number of associations refused because the scope was closed or joined
     */
    public long refusedCount() {
        return core.refusedCount();
    }

    /**
     * See {@link SimpleCountingScope#name()}.
     *
     * @return the name given to the constructor, else a generated one
     */
    public String name() {
        return core.name();
    }

    /**
     * See {@link SimpleCountingScope#outstanding()}.
     *
     * @return the listable work still associated, oldest first
     */
    public List<OutstandingWork> outstanding() {
        return core.outstanding();
    }

    /** {@code name[STATE, count=n]}, e.g. {@code orders[CLOSED_AND_JOINING, count=2]}. */
    @Override
    public String toString() {
        return core.name() + "[" + state() + ", count=" + count() + "]";
    }
}
