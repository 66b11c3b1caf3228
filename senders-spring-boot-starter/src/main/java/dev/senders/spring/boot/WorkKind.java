package dev.senders.spring.boot;

/**
 * The kinds of work the starter hands to the application scope, each counted on its own in
 * {@link ScopeReport}: what a report or a log line says was spawned is what was.
 */
public enum WorkKind {
    /** Work spawned through {@link ScopeSpawner}, {@link ReactorScopeSpawner} or {@link RxScopeSpawner}. */
    SPAWNED("spawned"),
    /** Tasks of a tracked executor ({@code applicationTaskExecutor}, {@link ScopeTracked} beans, {@code @Async}). */
    EXECUTOR_TASK("executor tasks"),
    /**
     * Fire-and-forget subscriptions: those the fire-and-forget hooks installed for the scope found
     * ({@code senders.scope.fire-and-forget=report|track}, read from their
     * {@code FireAndForgetTracker}s), and work spawned with this kind's
     * {@link ScopeSpawner#token(WorkKind) token}. Reported once either is in use; how these counts
     * relate to the scope's own count is said in {@link ScopeReport}.
     */
    SUBSCRIPTION("subscriptions");

    private final String label;

    WorkKind(String label) {
        this.label = label;
    }

    /**
     * How reports name the kind.
     *
     * @return e.g. {@code "executor tasks"}
     */
    public String label() {
        return label;
    }
}
