package dev.senders.scope;

/**
 * Why a scope refused to associate work ({@link AsyncScopeToken#tryAssociate()} returned
 * {@code false}): every path then refuses the same way ({@code spawn} returns {@code false},
 * {@code nest} and {@code spawnFuture} complete stopped, the adapters' spawns return their
 * refusal). Counted per reason by {@code refusedCount(RefusalReason)} on both scope types.
 */
public enum RefusalReason {
    /** The scope was closed (or already joined): it takes no new work, for good. */
    CLOSED,
    /**
     * The scope held as many operations as its {@code maxOutstanding} limit allows; it takes new
     * work again once some of the outstanding work has ended.
     */
    FULL
}
