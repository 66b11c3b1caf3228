package dev.senders.scope;

/**
 * An operation that may be waiting for a thread after its start: a {@link ScopedTask} handed to
 * its executor and not yet run. The scope's outstanding list asks it, through the operations
 * between (a {@link DecoratedSender}'s), so that views say "queued for" rather than "running for".
 */
interface QueuedWork {

    /**
     * Whether the work was started but has not begun to run.
     *
     * @return {@code true} while it waits for a thread
     */
    boolean queued();
}
