package dev.senders.spring.boot.autoconfigure;

/**
 * Matches unless {@code senders.scope.track-scheduled-tasks} is {@code false}, read through
 * {@link dev.senders.spring.boot.SendersScopeProperties} (its one binding, whose field holds the default).
 */
public final class OnTrackScheduledTasksCondition extends ScopeFlagCondition {

    /** Created by Spring for the annotations that name it. */
    public OnTrackScheduledTasksCondition() {
        super("senders.scope.track-scheduled-tasks", p -> p.isTrackScheduledTasks());
    }
}
