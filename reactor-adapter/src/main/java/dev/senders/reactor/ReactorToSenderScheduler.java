package dev.senders.reactor;

import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.internal.ScheduleOperation;
import java.util.Objects;
import reactor.core.Disposable;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;

/**
 * {@link ReactorSchedulers#from}: {@code schedule()} submits one task to a Reactor scheduler
 * ({@code schedule(Runnable)}) and completes from it, on the Reactor scheduler's thread. A stop
 * request before the task runs disposes the task and completes {@code setStopped()} on the
 * requesting thread; a scheduler that throws (a {@code RejectedExecutionException}) completes
 * {@code setError} with it. The state machine is the library's one schedule operation,
 * {@link ScheduleOperation}.
 */
final class ReactorToSenderScheduler implements Scheduler {

    private final reactor.core.scheduler.Scheduler scheduler;
    private final Sender<Void> schedule;

    ReactorToSenderScheduler(reactor.core.scheduler.Scheduler scheduler) {
        this.scheduler = scheduler;
        this.schedule = receiver -> new Task(scheduler, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public Sender<Void> schedule() {
        return schedule;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReactorToSenderScheduler && ((ReactorToSenderScheduler) o).scheduler == scheduler;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(scheduler);
    }

    @Override
    public String toString() {
        return "ReactorSchedulers.from(" + scheduler + ")";
    }

    /** The schedule operation ({@link ScheduleOperation}): the handle is Reactor's {@link Disposable}. */
    static final class Task extends ScheduleOperation<Disposable> {
        private final reactor.core.scheduler.Scheduler scheduler;

        Task(reactor.core.scheduler.Scheduler scheduler, Receiver<? super Void> receiver) {
            super(receiver, true);
            this.scheduler = scheduler;
        }

        @Override
        protected Disposable submit() {
            return scheduler.schedule(this);
        }

        @Override
        protected void cancel(Disposable task) {
            task.dispose();
        }

        @Override
        protected void dropped(Throwable error) {
            Dropped.error(error, Context.empty());
        }

        @Override
        public String toString() {
            return "ReactorSchedulers.from(" + scheduler + ").schedule()'s operation";
        }
    }
}
