package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Sender;
import dev.senders.internal.signal.Connect;
import dev.senders.Senders;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.signal.StopNode;
import java.time.Duration;
import dev.senders.internal.Trampoline;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The async-scope algorithms of P3149R6 ({@code nest}, {@code spawn}, {@code spawn_future}) and
 * P3296R3 ({@code let_async_scope}). They work with any {@link AsyncScopeToken}; with the tokens
 * of {@link SimpleCountingScope} and {@link CountingScope} they take no lock and keep no per-child
 * registry: associating is one CAS on the scope's word, dissociating another. Work that is
 * {@linkplain #named named} (or all work, while debug capture is on) is also listed by the scope
 * until it ends, at the cost of a small node per operation.
 */
public final class Scopes {

    /**
     * An env query for the handler of errors from work spawned with {@link #spawn(Sender,
     * AsyncScopeToken, Env)}: when the env passed to {@code spawn} binds it, it takes precedence over
     * the scope's handler (except in {@code letAsyncScope}, whose error rule always applies).
     */
    public static final Query<Consumer<? super Throwable>> SPAWN_ERROR_HANDLER = Query.named("spawnErrorHandler");

    private Scopes() {}

    /**
     * {@code sender} with a name: when it is associated with a {@link SimpleCountingScope} or
     * {@link CountingScope} (by {@link #spawn}, {@link #spawnFuture} or {@link #nest}), the scope
     * lists it in {@code outstanding()} while it runs, with its age (and its spawn site under
     * debug capture), names it in shutdown and leak reports, JFR events and the
     * {@link ScopeTrace} its error carries. Name the sender you hand to the scope: a name on an
     * inner sender (before {@code then}, say) is not seen. Connected anywhere else, the result is
     * {@code sender} itself. Usage: {@code Scopes.spawn(Scopes.named(work, "audit-" + id), token)}.
     *
     * <p>Cost: a named piece of work is tracked (one more operation object, which is also a node
     * of the scope's outstanding list, and a few atomic operations); unnamed work costs nothing
     * extra.
     *
     * @param <T> the value type
     * @param sender the work to name
     * @param name the name scopes list and report it under
     * @return {@code sender} carrying {@code name}
     * @throws NullPointerException if an argument is null
     */
    public static <T> Sender<T> named(Sender<T> sender, String name) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(name, "name");
        return new NamedSender<>(sender, name);
    }

    /**
     * Shuts {@code scope} down within bounded time and says what was left: {@code close()}s it
     * (refusing new work), waits up to {@code grace} for it to join, then, if work is still
     * associated, {@code requestStop()}s it and waits up to {@code stopTimeout} more. Returns
     * whether it joined and, if not, the work still running (the oldest
     * {@value OutstandingSummary#DEFAULT_LIMIT} pieces of {@code outstanding()}, then counts of the
     * rest: see {@link OutstandingSummary}), whose {@code toString()} is a log-ready report. Never
     * waits longer than {@code grace + stopTimeout} (plus the stop callbacks, which run on this
     * thread): work that ignores stop stays associated and is reported, not waited for.
     *
     * <p>This is {@code Senders.syncWait(joinOrStopAsync(scope, grace, stopTimeout))}: it blocks the
     * calling thread, and the stop request at the grace deadline runs on it. An interrupt cuts it
     * short: stop is requested at once, the report is returned with
     * {@link ShutdownReport#interrupted()} true, and the thread's interrupt status is set. JFR:
     * {@code dev.senders.JoinDeadline} events when the grace and the stop timeout pass, besides
     * the join's {@code JoinStart}/{@code JoinEnd}.
     *
     * @param scope the scope to shut down
     * @param grace how long to wait for it to join after {@code close()}
     * @param stopTimeout how long to wait more after {@code requestStop()}
     * @return what was found: whether it joined and the work still running
     * @throws IllegalStateException on a thread that must not block (see
     *         {@link dev.senders.Hooks#isNonBlockingThread})
     * @throws NullPointerException if an argument is null
     */
    public static ShutdownReport joinOrStop(CountingScope scope, Duration grace, Duration stopTimeout) {
        return Nulls.nonNull(Senders.syncWait(joinOrStopAsync(scope, grace, stopTimeout))); // completes with a report, never stopped
    }

    /**
     * The shutdown of {@link #joinOrStop} as a sender, with the default list limit
     * ({@value OutstandingSummary#DEFAULT_LIMIT}).
     *
     * @param scope the scope to shut down
     * @param grace how long to wait for it to join after {@code close()}
     * @param stopTimeout how long to wait more after {@code requestStop()}
     * @return a sender of the shutdown's report
     * @throws NullPointerException if an argument is null
     * @see #joinOrStopAsync(CountingScope, Duration, Duration, int, Consumer)
     */
    public static Sender<ShutdownReport> joinOrStopAsync(CountingScope scope, Duration grace, Duration stopTimeout) {
        return joinOrStopAsync(scope, grace, stopTimeout, OutstandingSummary.DEFAULT_LIMIT, null);
    }

    /**
     * The shutdown of {@link #joinOrStop} as a sender that blocks no thread. On {@code start} it
     * {@code close()}s {@code scope} and starts its join; if the scope has not joined within
     * {@code grace}, it requests stop on the scope and waits up to {@code stopTimeout} more. It
     * completes with the {@link ShutdownReport} ({@code setValue}; it never completes stopped) as
     * soon as the scope joins or the stop timeout passes with work still associated (which is
     * then reported, not waited for). Multi-shot: each start is a shutdown (a second one on the
     * same scope finds it closed or joined).
     *
     * <p>Threads: the report is delivered on the thread that ended the scope's last work, on the
     * library's timer thread ({@code senders-timer}) at the stop deadline, or on the thread that
     * requested stop on the receiver. The deadlines are kept by the library's timer. The stop
     * request at the grace deadline (the work's stop callbacks) runs on the receiver's scheduler
     * when its env has one (as {@code syncWait}'s has), else on a new daemon thread
     * ({@code senders-stop-<scope>}): never on the timer thread, so a stop callback that blocks
     * delays neither the stop deadline nor other timeouts. {@code onGrace} is called on the timer
     * thread at the grace deadline, before the stop request, with the report as of then (not
     * joined, {@code stopRequested()} still false); it must not block, and what it throws goes to
     * {@link dev.senders.Hooks#onErrorDropped}.
     *
     * <p>A stop request on the receiver cuts the shutdown short, as an interrupt cuts
     * {@link #joinOrStop} short: stop is requested on the scope at once, on the requesting thread,
     * and the report is delivered then, with {@link ShutdownReport#interrupted()} true. JFR:
     * {@code dev.senders.JoinDeadline} when the grace and the stop timeout pass, besides the join's
     * {@code JoinStart}/{@code JoinEnd}.
     *
     * @param scope the scope to shut down
     * @param grace how long to wait for it to join after {@code close()}
     * @param stopTimeout how long to wait more after {@code requestStop()}
     * @param listLimit the most pieces of outstanding work the report (and {@code onGrace}'s) lists;
     *        the rest is counted ({@link OutstandingSummary})
     * @param onGrace told the state at the grace deadline, or {@code null}
     * @return a sender of the shutdown's report
     * @throws NullPointerException if {@code scope}, {@code grace} or {@code stopTimeout} is null
     * @throws IllegalArgumentException if {@code listLimit} is negative
     */
    public static Sender<ShutdownReport> joinOrStopAsync(CountingScope scope, Duration grace, Duration stopTimeout,
            int listLimit, @Nullable Consumer<? super ShutdownReport> onGrace) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(stopTimeout, "stopTimeout");
        return new JoinOrStop(scope, grace, stopTimeout, OutstandingSummary.checkLimit(listLimit), onGrace);
    }

    /**
     * {@code nest(sender, token)} (P3149R6 [exec.nest]): associates {@code sender} with the token's
     * scope without starting it. See {@link NestSender} for who releases the association and when.
     * If the scope is closed, the result is unassociated: it completes with {@code setStopped()}
     * and never connects {@code sender}.
     *
     * @param <T> the value type
     * @param sender the work to associate
     * @param token the token of the scope
     * @return the associated (or, if the scope was closed, unassociated) sender
     * @throws NullPointerException if an argument is null
     */
    public static <T> NestSender<T> nest(Sender<T> sender, AsyncScopeToken token) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(token, "token");
        return new NestSender<>(sender, token);
    }

    /**
     * {@code spawn(sender, token)} (P3149R6 [exec.spawn]) with the scope's default env.
     *
     * @param sender the work to start
     * @param token the token of the scope
     * @return {@code true} if the work was started, {@code false} if the scope was closed
     * @see #spawn(Sender, AsyncScopeToken, Env)
     */
    public static boolean spawn(Sender<?> sender, AsyncScopeToken token) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(token, "token");
        if (!token.tryAssociate()) {
            return false;
        }
        spawnAssociated(sender, token);
        return true;
    }

    /** {@code spawn(sender, token)} once {@code token.tryAssociate()} has succeeded. */
    static void spawnAssociated(Sender<?> sender, AsyncScopeToken token) {
        Env env;
        SpawnReceiver r;
        try {
            env = token.spawnEnv();
            // A scope with a stop source: the receiver is also the first registration on it.
            // (StopNode.Host is a class: a failed interface instanceof here would scan the secondary supers.)
            r = env.stopToken() instanceof StopNode.Host ? new SpawnReceiver.Stoppable(token) : new SpawnReceiver.Plain(token);
        } catch (Throwable t) {
            token.dissociate();
            throw t;
        }
        start(sender, token, r, env);
    }

    /**
     * A sender that, when started, spawns {@code sender} into {@code scope} as soon as the scope has
     * room for it, for producers that would rather wait than drop work at a scope's
     * {@linkplain AbstractCountingScope#maxOutstanding() limit}: it completes with {@code true}
     * once the work was spawned (as by {@link #spawn(Sender, AsyncScopeToken)}), with
     * {@code false} if the scope was closed first (the work never starts; counted as a refusal),
     * and with {@code setStopped()} if its own receiver's stop is requested while it waits (the
     * work never starts). Bound the wait with a deadline: {@code spawnWhenAvailable(work, scope)
     * .timeout(Duration.ofSeconds(1))} fails with a {@code TimeoutException}. Waiting producers
     * retry each time room is made, so under contention any of them may take a freed slot (no
     * fairness, as with a non-fair {@link java.util.concurrent.Semaphore}).
     *
     * <p>Which thread completes it, and starts the work: the starting thread when there is room at
     * once (or the scope is closed); otherwise the thread whose work ended and made room (or that
     * closed the scope, or raised the limit); a stop completes it on the requesting thread. A
     * second {@code start} of its operation throws {@link dev.senders.ProtocolViolationException}.
     *
     * @param sender the work to spawn
     * @param scope the scope to spawn it into
     * @return a sender of whether the work was spawned
     * @throws NullPointerException if an argument is null
     */
    public static Sender<Boolean> spawnWhenAvailable(Sender<?> sender, AbstractCountingScope scope) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(scope, "scope");
        return receiver -> ScopeWaiters.spawnWhenAvailable(sender, scope.core(), Objects.requireNonNull(receiver, "receiver"));
    }

    /**
     * {@code spawn(sender, token, env)} (P3149R6 [exec.spawn]): if {@code token.tryAssociate()}
     * succeeds, connects {@code token.wrap(sender)} and starts it at once, on the calling thread,
     * and returns {@code true}; the association is released when the work completes. (Called from
     * inside more than 16 nested starts on this thread, as in a loop that spawns each piece of
     * work from the completion of the previous one, the start is queued and runs on this thread
     * as soon as the outer start returns or the thread enters {@code syncWait}: the stack stays
     * bounded at any length of the loop.) If the scope
     * is closed, {@code sender} is never connected or started and this returns {@code false} (P3149
     * discards silently; here the caller can tell).
     *
     * <p>The spawned work's receiver offers {@code env} (its stop token is the scope's for a
     * {@link CountingScope}). A value is discarded. An error never vanishes: it goes to the env's
     * {@link #SPAWN_ERROR_HANDLER}, else to the handler given to the scope's constructor, else to
     * {@link dev.senders.Hooks#onErrorDropped} (by default the thread's uncaught-exception handler),
     * on the thread that completes the work, before the association is released; the scope's
     * {@code errorCount()} counts it. If {@code connect} throws, the association is released and
     * the exception propagates.
     *
     * @param sender the work to start
     * @param token the token of the scope
     * @param env the env the work's receiver offers
     * @return {@code true} if the work was started, {@code false} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static boolean spawn(Sender<?> sender, AsyncScopeToken token, Env env) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(env, "env");
        if (!token.tryAssociate()) {
            return false;
        }
        SpawnReceiver r;
        try {
            r = new SpawnReceiver.WithEnv(token, env);
        } catch (Throwable t) { // an OutOfMemoryError: the association must not stay behind
            token.dissociate();
            throw t;
        }
        start(sender, token, r, env);
        return true;
    }

    /** {@code env}: what the work sees, apart from a {@code Stoppable} receiver's own stop token. */
    private static void start(Sender<?> sender, AsyncScopeToken token, SpawnReceiver r, Env env) {
        OperationState op;
        try {
            // wrap(sender, env), not a test of the token's class: a token that forwards to a
            // scope's token gets the scope's fast path (no stopWhen when the env has its token)
            op = Connect.checked(Objects.requireNonNull(token.wrap(sender, env), "token.wrap returned null"), r);
        } catch (Throwable t) {
            if (r.abandonConnect()) { // a completion during connect may have released it already
                token.dissociate();
            }
            throw t;
        }
        if (r.beginStart()) {  // false: it completed during connect, reported as its error
            // the op is not retained: the work keeps what it needs. Through the trampoline: a
            // spawn from inside spawned work (a spawn loop) is queued beyond 16 nested starts on
            // this thread, so the stack stays bounded (a queued start that throws is the work's error)
            try {
                Trampoline.start(op, r);
            } catch (Throwable t) {
                // start must not throw; one that does ends the work with that error (routed, and
                // the association released), as a queued start that throws does: a join never
                // waits for a start that broke. A fatal JVM error still propagates, after that.
                r.startThrew(t);
                Signals.throwIfFatal(t);
            }
        }
    }

    /**
     * The env's {@link #SPAWN_ERROR_HANDLER}, or null; an env whose lookup throws yields null and
     * has that exception added to {@code error} as suppressed.
     */
    static @Nullable Consumer<? super Throwable> envErrorHandler(Throwable error, Env env) {
        try {
            return env.get(SPAWN_ERROR_HANDLER);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            error.addSuppressed(t);
            return null;
        }
    }

    /** Hands a spawn error to {@code handler}, or to the hook if there is none or it throws. */
    static void handleSpawnError(Throwable error, @Nullable Consumer<? super Throwable> handler) {
        if (handler == null) {
            Hooks.onErrorDropped(error);
            return;
        }
        try {
            handler.accept(error);
        } catch (Throwable t) {
            Signals.handlerFailed(t, error);
        }
    }

    /**
     * {@code spawnFuture(sender, token)} with the scope's default env.
     *
     * @param <T> the value type
     * @param sender the work to start
     * @param token the token of the scope
     * @return a single-shot sender of the work's result
     */
    public static <T> Sender<T> spawnFuture(Sender<T> sender, AsyncScopeToken token) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(token, "token");
        return SpawnFuture.spawn(sender, token, null);
    }

    /**
     * {@code spawn_future(sender, token, env)} (P3149R6 [exec.spawn.future]): if
     * {@code token.tryAssociate()} succeeds, starts {@code token.wrap(sender)} at once and returns a
     * single-shot sender of its result; otherwise returns a sender that completes with
     * {@code setStopped()} and never starts {@code sender}.
     *
     * <ul>
     * <li>The result reaches the consumer whether it starts before or after the work completed: on
     *     the work's thread in the first case, inline in {@code start} in the second.
     * <li>A stop request on the consumer's token while the work runs is forwarded to the work and
     *     the consumer completes with {@code setStopped()} at once (on the requesting thread),
     *     without waiting. A result already there is delivered whatever the token says.
     * <li>A future that becomes unreachable unconsumed (never connected, or connected and never
     *     started) requests stop on the work. An error nobody takes (its future dropped, or its
     *     consumer stopped first) goes where {@link #spawn}'s errors go and is counted. Futures whose work is still running (or
     *     failed) when this returns are tracked in per-thread batches of up to 1,024, one
     *     {@code Cleaner} registration per batch: a dropped one is stopped (or its error reported)
     *     once no unconsumed future of its batch is reachable; a started future leaves its batch.
     *     A future whose work already ended with a value or stopped needs no tracking.
     * <li>The work sees a stop token fired by any of those or by {@code env}'s own token.
     * <li>The scope's count is held until the work itself completes.
     * <li>A second {@code connect} throws {@link IllegalStateException}.
     * </ul>
     *
     * @param <T> the value type
     * @param sender the work to start
     * @param token the token of the scope
     * @param env the env the work's receiver offers
     * @return a single-shot sender of the work's result
     * @throws NullPointerException if an argument is null
     */
    public static <T> Sender<T> spawnFuture(Sender<T> sender, AsyncScopeToken token, Env env) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(env, "env");
        return SpawnFuture.spawn(sender, token, env);
    }

    /**
     * {@code let_async_scope} (P3296R3): a sender that, each time it is started, creates a fresh
     * counting scope, calls {@code fn} with its token and runs the returned sender (the "body")
     * associated with that scope. It completes only after the scope is joined, i.e. after the body
     * and all work spawned with the token have completed, on the receiver's scheduler when its env
     * has one and it had to wait.
     *
     * <ul>
     * <li>The result: the first error wins; an error is {@code fn} throwing (or returning null),
     *     the body failing, or work {@linkplain #spawn spawned} with the token failing. Any error
     *     requests stop on everything associated. Without errors: the body's value, or
     *     {@code setStopped()} if the body stopped.
     * <li>A stop request on the receiver reaches all associated work. Spawned work sees the
     *     receiver's env (scheduler, user queries).
     * <li>Errors of {@link #nest}ed senders and of {@link #spawnFuture} results go to their own
     *     consumers, not to this rule.
     * </ul>
     *
     * @param <T> the value type
     * @param fn called with the new scope's token on each start; returns the body
     * @return a sender of the body's result, completing after the scope is joined
     * @throws NullPointerException if {@code fn} is null
     */
    public static <T> Sender<T> letAsyncScope(Function<? super AsyncScopeToken, ? extends Sender<T>> fn) {
        return new LetAsyncScope<>(Objects.requireNonNull(fn, "fn"), null);
    }

    /**
     * {@code let_async_scope_with_error<E>} (P3296R3): as {@link #letAsyncScope(Function)}, but only
     * errors that are instances of {@code errorType} can become the result. Any other error (which
     * C++ would reject at compile time) is a bug: it is passed to
     * {@link dev.senders.Hooks#onErrorDropped}, it still requests stop on the scope, and if no
     * permitted error occurs the sender completes with {@code setStopped()} instead of a value.
     *
     * @param <T> the value type
     * @param errorType the only errors that may become the result
     * @param fn called with the new scope's token on each start; returns the body
     * @return a sender of the body's result, completing after the scope is joined
     * @throws NullPointerException if an argument is null
     */
    public static <T> Sender<T> letAsyncScope(Class<? extends Throwable> errorType,
            Function<? super AsyncScopeToken, ? extends Sender<T>> fn) {
        Objects.requireNonNull(errorType, "errorType");
        return new LetAsyncScope<>(Objects.requireNonNull(fn, "fn"), errorType);
    }
}
