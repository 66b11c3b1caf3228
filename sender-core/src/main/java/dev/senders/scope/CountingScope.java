package dev.senders.scope;

import dev.senders.StopToken;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

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
public final class CountingScope extends AbstractCountingScope {

    /** A scope in the {@code UNUSED} state whose spawn errors go to {@code Hooks.onErrorDropped}; its name is generated. */
    public CountingScope() {
        this(null, null, ScopeCore.UNBOUNDED);
    }

    /**
     * A scope whose spawned work's errors go to {@code errorHandler} (called on the failing thread).
     *
     * @param errorHandler receives the errors of spawned work
     * @throws NullPointerException if {@code errorHandler} is null
     */
    public CountingScope(Consumer<? super Throwable> errorHandler) {
        this(null, Objects.requireNonNull(errorHandler, "errorHandler"), ScopeCore.UNBOUNDED);
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
        this(checkName(name), null, ScopeCore.UNBOUNDED);
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
        this(checkName(name), Objects.requireNonNull(errorHandler, "errorHandler"), ScopeCore.UNBOUNDED);
    }

    private CountingScope(@Nullable String name, @Nullable Consumer<? super Throwable> errorHandler, long maxOutstanding) {
        super("CountingScope", name, true, errorHandler, maxOutstanding);
    }

    /**
     * A builder for a scope with a name, an error handler and a limit on outstanding work.
     *
     * @return a new builder
     */
    public static ScopeBuilder<CountingScope> builder() {
        return new ScopeBuilder<>(CountingScope::new);
    }

    /**
     * Requests stop on the scope's stop source: every associated operation, and every operation
     * associated later, sees its stop token fire. Callbacks run on the calling thread. Does not
     * close the scope.
     */
    public void requestStop() {
        Nulls.nonNull(core.stopSource).requestStop(); // a CountingScope's core is stoppable
    }

    /**
     * The scope's own stop token (fired by {@link #requestStop()}).
     *
     * @return the stop token {@link #requestStop()} fires
     */
    public StopToken stopToken() {
        return Nulls.nonNull(core.stopSource).token();
    }
}
