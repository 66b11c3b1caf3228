package dev.senders.rxjava3;

import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.internal.ScheduleOperation;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * {@link RxSchedulers#from}: a sender {@link Scheduler} whose {@code schedule()} runs one task on
 * the RxJava scheduler ({@code scheduleDirect}) and completes {@code setValue(null)} from it, on
 * the RxJava scheduler's thread. A stop request disposes the task and completes
 * {@code setStopped()} on the requesting thread. A task the RxJava scheduler refuses
 * ({@code scheduleDirect} throws, or returns an already-disposed {@code Disposable} without having
 * run the task, as a shut-down {@code Schedulers.from(executor)} does) completes
 * {@code setError(RejectedExecutionException)}.
 * The state machine is the library's one schedule operation, {@link ScheduleOperation}.
 */
final class RxToSenderScheduler implements Scheduler {

    final io.reactivex.rxjava3.core.Scheduler rx;
    private final Sender<Void> schedule;

    RxToSenderScheduler(io.reactivex.rxjava3.core.Scheduler rx) {
        this.rx = rx;
        this.schedule = receiver -> new Operation(rx, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public Sender<Void> schedule() {
        return schedule;
    }

    @Override
    public String toString() {
        return "RxSchedulers.from(" + rx + ")";
    }

    /**
     * The schedule operation ({@link ScheduleOperation}): the handle is the task's
     * {@link Disposable}; one already disposed when {@code scheduleDirect} returns, with the task
     * not run, is a refusal (the task claims the operation before running, so it never will).
     */
    static final class Operation extends ScheduleOperation<Disposable> {
        private final io.reactivex.rxjava3.core.Scheduler rx;

        Operation(io.reactivex.rxjava3.core.Scheduler rx, Receiver<? super Void> receiver) {
            super(receiver, true);
            this.rx = rx;
        }

        @Override
        protected Disposable submit() {
            return rx.scheduleDirect(this);
        }

        @Override
        protected void cancel(Disposable task) {
            task.dispose();
        }

        @Override
        protected @Nullable Throwable refused(Disposable task) {
            return task.isDisposed() ? new RejectedExecutionException(rx + " refused the task") : null;
        }

        @Override
        protected void dropped(Throwable error) {
            RxJavaPlugins.onError(error);
        }

        @Override
        public String toString() {
            return "RxSchedulers.from(" + rx + ").schedule()'s operation";
        }
    }
}
