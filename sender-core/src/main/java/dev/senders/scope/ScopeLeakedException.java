package dev.senders.scope;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reported to {@link dev.senders.Hooks#onErrorDropped(Throwable)} when a scope becomes unreachable
 * while work is still associated with it: the situation in which P3149R6's
 * {@code ~simple_counting_scope()} calls {@code std::terminate()}. A scope whose count is zero
 * lost nothing and is not reported, whether or not it was closed and joined.
 *
 * <p>The message names the scope and lists the work it could still list (named work, and all
 * work spawned under debug capture: see {@link OutstandingWork}). When debug capture was on as the
 * scope was created, the cause is a {@link ScopeTrace} whose stack trace is where.
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
            @Nullable ScopeTrace createdAt) {
        super(message(scope, state, count, outstanding), trimmed(createdAt));
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

    private static String message(String scope, ScopeState state, long count, List<OutstandingWork> outstanding) {
        StringBuilder sb = new StringBuilder();
        sb.append(scope).append(" became unreachable in state ").append(state).append(" with ").append(count)
                .append(" associated operation(s); close() and join() a scope before dropping it");
        if (!outstanding.isEmpty()) {
            sb.append(". Still running: ");
            for (int i = 0; i < outstanding.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(outstanding.get(i));
            }
        }
        long unlisted = count - outstanding.size();
        if (unlisted > 0) {
            sb.append(outstanding.isEmpty() ? ". " : "; ").append(unlisted)
                    .append(" unnamed operation(s) not listed (name work with Scopes.named, or run with"
                            + " -Ddev.senders.debug=true to list all work with its spawn site)");
        }
        return sb.toString();
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
