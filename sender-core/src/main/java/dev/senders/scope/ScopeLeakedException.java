package dev.senders.scope;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reported to {@link dev.senders.Hooks#onErrorDropped(Throwable)} when a scope becomes unreachable
 * while work is still associated with it: the situation in which P3149R6's
 * {@code ~simple_counting_scope()} calls {@code std::terminate()}. A scope whose count is zero
 * lost nothing and is not reported, whether or not it was closed and joined.
 *
 * <p>The message names the scope and lists the oldest work it could still list (named work, and
 * all work spawned under debug capture: see {@link OutstandingWork}), at most
 * {@link OutstandingSummary#DEFAULT_LIMIT} pieces, then counts of the rest by name and kind, so it
 * stays a few lines long whatever the count; {@link #outstanding()} has the whole list. When debug
 * capture was on as the scope was created, the cause is a {@link ScopeTrace} whose stack trace is
 * where.
 *
 * @see "P3149R6, [exec.simple.counting.dtor]: a scope dropped while work is associated"
 */
public final class ScopeLeakedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The name of the scope that became unreachable. */
    private final String scopeName;
    private final transient ScopeState state;
    /** The number of operations still associated when the scope became unreachable. */
    private final long count;
    private final transient List<OutstandingWork> outstanding;

    ScopeLeakedException(String scope, ScopeState state, long count, List<OutstandingWork> outstanding,
            OutstandingSummary summary, @Nullable ScopeTrace createdAt) {
        super(message(scope, state, count, summary), trimmed(createdAt));
        this.scopeName = scope;
        this.state = state;
        this.count = count;
        this.outstanding = List.copyOf(outstanding);
    }

    private static @Nullable ScopeTrace trimmed(@Nullable ScopeTrace site) {
        if (site != null) {
            site.getStackTrace(); // library frames removed before the cause is printed
        }
        return site;
    }

    private static String message(String scope, ScopeState state, long count, OutstandingSummary summary) {
        return scope + " became unreachable in state " + state + " with " + count
                + " associated operation(s); close() and join() a scope before dropping it"
                + (summary.total() == 0 ? "" : ". Still running:" + summary.lines(0));
    }

    /**
     * The scope's name ({@code CountingScope@1b6d3586} style when it was not given one).
     *
     * @return the name of the scope that became unreachable
     */
    public String scopeName() {
        return scopeName;
    }

    /**
     * The state the scope was in when it became unreachable.
     *
     * @return the state, or {@code null} after deserialization
     */
    public ScopeState state() {
        return state;
    }

    /**
     * The number of operations still associated when it became unreachable.
     *
     * @return the number of associated operations
     */
    public long count() {
        return count;
    }

    /**
     * The work the scope could list then (see {@link CountingScope#outstanding()}), oldest first.
     *
     * @return the listable work still associated then, oldest first (empty after deserialization)
     */
    public List<OutstandingWork> outstanding() {
        return outstanding == null ? List.of() : outstanding;
    }
}
