package dev.senders.reactor;

import dev.senders.Scheduler;
import java.util.Objects;

/**
 * Schedulers across the boundary: a Reactor {@code Scheduler} as a sender {@link Scheduler}, and
 * back.
 */
public final class ReactorSchedulers {

    private ReactorSchedulers() {}

    /**
     * A sender scheduler whose {@code schedule()} sender, when started, submits one task to
     * {@code scheduler} ({@link reactor.core.scheduler.Scheduler#schedule(Runnable)}) and completes
     * with {@code setValue(null)} on that scheduler's thread. A stop request on the receiver's token
     * before the task runs disposes the task and completes with {@code setStopped()} on the stopping
     * thread; a stop request once the task runs changes nothing. A scheduler that rejects the task
     * ({@code RejectedExecutionException}, e.g. when disposed) completes with {@code setError}.
     *
     * @param scheduler the Reactor scheduler to run on
     * @return a sender scheduler whose operations complete on {@code scheduler}
     */
    public static Scheduler from(reactor.core.scheduler.Scheduler scheduler) {
        return new ReactorToSenderScheduler(Objects.requireNonNull(scheduler, "scheduler"));
    }

    /**
     * A Reactor scheduler that runs each task by starting {@code scheduler.schedule()} and running
     * the task from its {@code setValue}, on whatever thread that sender completes on.
     *
     * <ul>
     * <li>{@code schedule(task)} returns a {@code Disposable} whose {@code dispose()} requests stop
     *     on that one operation (a task that has not run yet never runs);
     * <li>{@code createWorker()}: tasks given to one worker run one at a time, in submission order
     *     (a serializing queue drained from {@code schedule()} completions); disposing the worker
     *     drops its pending tasks and rejects new ones;
     * <li>{@code dispose()} requests stop on every operation still pending and makes later
     *     {@code schedule} calls throw {@code RejectedExecutionException};
     * <li>delayed and periodic scheduling are not supported (a sender scheduler has no clock): they
     *     throw {@code RejectedExecutionException}, Reactor's default for such schedulers;
     * <li>if {@code schedule()} fails while being started (a rejecting executor, a
     *     {@code schedule()} that returns null), {@code schedule(task)} throws
     *     {@code RejectedExecutionException} (Reactor's contract; {@code subscribeOn} then signals
     *     {@code onError}), for a direct task and for a worker's task alike; a later failure, and an
     *     exception thrown by a task, go to Reactor's {@code Operators.onErrorDropped} hook.
     * </ul>
     *
     * @param scheduler the sender scheduler that runs the tasks
     * @return a Reactor scheduler backed by {@code scheduler}
     */
    public static reactor.core.scheduler.Scheduler toReactor(Scheduler scheduler) {
        return new SenderToReactorScheduler(Objects.requireNonNull(scheduler, "scheduler"));
    }
}
