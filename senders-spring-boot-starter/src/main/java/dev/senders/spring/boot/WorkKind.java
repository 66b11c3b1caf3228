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
     * Fire-and-forget subscriptions the starter puts into the scope; counted (and reported) once
     * {@link ScopeSpawner#token(WorkKind)} was asked for this kind.
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
