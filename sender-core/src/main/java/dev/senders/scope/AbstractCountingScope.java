package dev.senders.scope;

import dev.senders.Sender;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SimpleCountingScope} and {@link CountingScope} have in common: a token, the seven
 * {@linkplain ScopeState states} of P3149R6, {@link #close()}, {@link #join()}, a non-ending
 * {@link #whenIdle()} wait, an optional limit on outstanding work, and the operator's view (name,
 * counters, outstanding work). Sealed: those two are the only kinds. Every method may be called
 * from any thread; none blocks.
 *
 * @see "P3149R6 [exec.simple.counting], [exec.counting.scope]"
 */
public abstract sealed class AbstractCountingScope permits SimpleCountingScope, CountingScope {

    final ScopeCore core;

    AbstractCountingScope(String kind, @Nullable String name, boolean stoppable, @Nullable Consumer<? super Throwable> errorHandler,
            long maxOutstanding) {
        ScopeCore c = ScopeCore.forScope(kind, name, stoppable, errorHandler);
        if (maxOutstanding != ScopeCore.UNBOUNDED) {
            c.setMaxOutstanding(maxOutstanding);
        }
        c.watch(this); // the leak check is registered at the first association
        this.core = c;
    }

    static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a scope's name must not be blank (it names the scope in reports)");
        }
        return name;
    }

    /** The shared state machine (package-private: tests and {@link Scopes} read its diagnostics). */
    ScopeCore core() {
        return core;
    }

    /**
     * The token that associates work with this scope; the same object on every call.
     *
     * @return this scope's token
     */
    public AsyncScopeToken getToken() {
        return core;
    }

    /**
     * Closes the scope to new work: {@code UNUSED -> UNUSED_AND_CLOSED}, {@code OPEN -> CLOSED},
     * {@code OPEN_AND_JOINING -> CLOSED_AND_JOINING}; in the other states (already closed) it does
     * nothing. Work already associated is not affected.
     */
    public void close() {
        core.close();
    }

    /**
     * A sender that, when started, waits until the count of associated work is zero and completes
     * with {@code setValue(null)}; the scope is then {@code JOINED}. Starting it moves the scope to
     * {@code OPEN_AND_JOINING} or {@code CLOSED_AND_JOINING}, or straight to {@code JOINED} if the
     * count is zero (also when the scope is open: the stdexec fix). Connecting it changes nothing.
     *
     * <p>Which thread completes it: the starting thread, inline, if it observes a zero count (or
     * the scope is already joined; any number of joins may be started, before or after); otherwise
     * the scheduler of its receiver's env ({@code schedule()} on it, then {@code setValue}), or,
     * if the env has none, the thread whose {@code dissociate} brought the count to zero.
     *
     * <p>Stop: a stop request on the receiver's token while the join waits completes it with
     * {@code setStopped()} at once, on the requesting thread, and the scope forgets that waiter;
     * the associated work is not stopped (that is {@code CountingScope.requestStop()}). A second
     * {@code start} of the same operation throws {@link dev.senders.ProtocolViolationException}.
     *
     * @return a sender that completes once the scope is joined
     */
    public Sender<Void> join() {
        return core.join();
    }

    /**
     * A sender that, when started, completes with {@code setValue(null)} the next time this scope
     * holds no work, at once if it holds none now; unlike {@link #join()} it changes nothing: the
     * scope keeps its state and keeps accepting work, so it can be waited for idle any number of
     * times (a test waiting for fire-and-forget work, a drain before a reload).
     *
     * <p>"The next time it holds no work" precisely: the wait completes once the count of
     * associated operations has been zero at some moment after the wait started. Work associated
     * before the wait started holds it back until that work ends; work associated while the last
     * of it ends may or may not (whichever comes first, the zero or the new association, decides),
     * and work associated after the zero does not. A scope that is already joined is idle.
     *
     * <p>Which thread completes it, and stop: as for {@link #join()} (the starting thread if the
     * count is zero; otherwise the receiver's scheduler, else the thread whose {@code dissociate}
     * brought the count to zero; a stop request completes it with {@code setStopped()} on the
     * requesting thread and unlinks it from the scope, so waits given up retain nothing).
     *
     * @return a sender that completes the next time the scope holds no work
     */
    public Sender<Void> whenIdle() {
        return core.whenIdle();
    }

    /**
     * The current state (a snapshot, for tests and monitoring).
     *
     * @return the current state
     */
    public ScopeState state() {
        return core.state();
    }

    /**
     * The current number of associated operations (a snapshot).
     *
     * @return the number of associated operations
     */
    public long count() {
        return core.count();
    }

    /**
     * The most operations this scope holds at once: at that count {@code tryAssociate()} fails and
     * every path refuses the work as it does for a closed scope ({@link RefusalReason#FULL}).
     * {@link Long#MAX_VALUE} when there is no limit (the default).
     *
     * @return the limit on outstanding work
     */
    public long maxOutstanding() {
        return core.maxOutstanding();
    }

    /**
     * Changes the limit on outstanding work, effective for the next association: lowering it
     * below the current count refuses new work until enough of the outstanding work has ended
     * (nothing already associated is touched); an association racing with the change may still
     * be checked against the previous limit.
     *
     * @param maxOutstanding the new limit, at least 1; {@link Long#MAX_VALUE} for no limit
     * @throws IllegalArgumentException if {@code maxOutstanding} is below 1
     */
    public void setMaxOutstanding(long maxOutstanding) {
        core.setMaxOutstanding(maxOutstanding);
    }

    /**
     * How many spawned operations of this scope completed with an error.
     *
     * @return the number of spawned operations that failed
     */
    public long errorCount() {
        return core.errorCount();
    }

    /**
     * How many associations this scope refused, for any reason: a {@code spawn} that returned
     * {@code false}, a {@code spawnFuture} or {@code nest} that completes stopped, an adapter's
     * refused spawn. A snapshot; never reset.
     *
     * @return the number of refused associations
     * @see #refusedCount(RefusalReason)
     */
    public long refusedCount() {
        return core.refusedCount();
    }

    /**
     * How many associations this scope refused for {@code reason}: because it was closed or
     * joined ({@link RefusalReason#CLOSED}), or because it held {@link #maxOutstanding()}
     * operations ({@link RefusalReason#FULL}). A snapshot; never reset.
     *
     * @param reason the reason to count
     * @return the number of associations refused for that reason
     * @throws NullPointerException if {@code reason} is null
     */
    public long refusedCount(RefusalReason reason) {
        return core.refusedCount(reason);
    }

    /**
     * The name given at creation, else a generated one ({@code CountingScope@1b6d3586}).
     *
     * @return the scope's name
     */
    public String name() {
        return core.name();
    }

    /**
     * The work still associated that this scope can list, oldest first: every piece of work
     * named with {@link Scopes#named} (or a spawn overload taking a name), and every piece spawned
     * while debug capture ({@code -Ddev.senders.debug=true}, {@code Hooks.enableDebugCapture()})
     * was on or a flight recording had {@code dev.senders.Spawn}/{@code WorkEnd} enabled, with its
     * spawn site under capture. Other work is only counted: {@code count() - outstanding().size()}
     * operations are unlisted (a nest sender not yet started counts but is not running). Work
     * leaves the list before its association is released. A snapshot; any thread.
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
