package dev.senders;

/**
 * A handle to an execution resource (P2300R3 [exec.sched]).
 *
 * <p>{@link #schedule()} returns a sender that, when started, completes with {@code setValue(null)}
 * on a thread of this scheduler's execution resource. If stop was requested on the receiver's
 * token before the work runs, it completes with {@code setStopped()} instead; if the resource
 * refuses the work (a shut-down executor), it completes with {@code setError}.
 */
@FunctionalInterface
public interface Scheduler {

    /**
     * A sender that completes on this scheduler.
     *
     * @return a sender that completes with {@code setValue(null)} on this scheduler
     */
    Sender<Void> schedule();
}
