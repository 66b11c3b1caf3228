package dev.senders.scope;

/**
 * The seven states of {@code simple_counting_scope} (P3149R6 [exec.simple.counting]).
 *
 * <table>
 * <caption>States</caption>
 * <tr><th>state</th><th>count</th><th>{@code tryAssociate()}</th><th>join</th></tr>
 * <tr><td>{@link #UNUSED}</td><td>0</td><td>can succeed</td><td>not needed</td></tr>
 * <tr><td>{@link #OPEN}</td><td>&ge; 0</td><td>can succeed</td><td>needed</td></tr>
 * <tr><td>{@link #CLOSED}</td><td>&ge; 0</td><td>false</td><td>needed</td></tr>
 * <tr><td>{@link #OPEN_AND_JOINING}</td><td>&gt; 0</td><td>can succeed</td><td>running</td></tr>
 * <tr><td>{@link #CLOSED_AND_JOINING}</td><td>&gt; 0</td><td>false</td><td>running</td></tr>
 * <tr><td>{@link #UNUSED_AND_CLOSED}</td><td>0</td><td>false</td><td>not needed</td></tr>
 * <tr><td>{@link #JOINED}</td><td>0</td><td>false</td><td>not needed</td></tr>
 * </table>
 */
public enum ScopeState {
    /** Fresh: nothing was ever associated, no join started, not closed. */
    UNUSED,
    /** Something was associated; a join is needed before the scope is dropped. */
    OPEN,
    /** Closed to new work after use; a join is needed. */
    CLOSED,
    /** A join is waiting; new work may still be associated. */
    OPEN_AND_JOINING,
    /** A join is waiting; the scope is closed to new work. */
    CLOSED_AND_JOINING,
    /** Closed before any use; no join needed. */
    UNUSED_AND_CLOSED,
    /** A join completed (count reached zero); terminal, closed to new work. */
    JOINED;

    /**
     * Whether {@code tryAssociate()} can succeed in this state (the paper's "open" scopes).
     *
     * @return {@code true} if work can be associated in this state
     */
    public boolean isOpen() {
        return this == UNUSED || this == OPEN || this == OPEN_AND_JOINING;
    }

    /**
     * Whether this state alone makes dropping the scope silent (no work can be associated). In
     * the other states a dropped scope is reported only while its count is above zero.
     *
     * @return {@code true} if dropping the scope in this state is never a leak
     */
    public boolean isSafeToDrop() {
        return this == UNUSED || this == UNUSED_AND_CLOSED || this == JOINED;
    }
}
