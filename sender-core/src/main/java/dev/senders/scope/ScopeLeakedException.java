package dev.senders.scope;

/**
 * Reported to {@link dev.senders.Hooks#onErrorDropped(Throwable)} when a scope becomes unreachable
 * while work is still associated with it, or after it was used and never joined: the situation in
 * which P3149R6's {@code ~simple_counting_scope()} calls {@code std::terminate()}.
 */
public final class ScopeLeakedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient ScopeState state;
    /** The number of operations still associated when the scope became unreachable. */
    private final long count;

    ScopeLeakedException(String scope, ScopeState state, long count) {
        super(scope + " became unreachable in state " + state + " with " + count
                + " associated operation(s); close() and join() a scope before dropping it"
                + " (P3149R6 [exec.simple.counting.dtor])");
        this.state = state;
        this.count = count;
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
}
