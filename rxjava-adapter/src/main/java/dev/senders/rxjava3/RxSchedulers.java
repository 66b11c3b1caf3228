package dev.senders.rxjava3;

import dev.senders.Scheduler;
import java.util.Objects;

/** Conversions between RxJava 3 {@code Scheduler}s and sender {@link Scheduler}s. */
public final class RxSchedulers {

    private RxSchedulers() {}

    /**
     * A sender scheduler whose {@code schedule()} completes on {@code scheduler}: each started
     * operation is one {@code scheduler.scheduleDirect} task ({@code setValue(null)} on the RxJava
     * scheduler's thread). A stop request disposes the task and completes {@code setStopped()};
     * a refused task completes {@code setError(RejectedExecutionException)}.
     * {@code toRx(from(s))} returns {@code s} itself.
     *
     * @param scheduler the RxJava scheduler to run on
     * @return a sender scheduler whose operations complete on {@code scheduler}
     */
    public static Scheduler from(io.reactivex.rxjava3.core.Scheduler scheduler) {
        Objects.requireNonNull(scheduler, "scheduler");
        if (scheduler instanceof SenderToRxScheduler) {
            return ((SenderToRxScheduler) scheduler).scheduler;
        }
        return new RxToSenderScheduler(scheduler);
    }

    /**
     * An RxJava scheduler that runs tasks through {@code scheduler.schedule()}. Its workers run
     * their tasks serially and in order, as RxJava requires; delays wait on RxJava's
     * {@code Schedulers.single()} timer and then hop onto {@code scheduler}. {@code from(toRx(s))}
     * returns {@code s} itself.
     *
     * @param scheduler the sender scheduler that runs the tasks
     * @return an RxJava scheduler backed by {@code scheduler}
     */
    public static io.reactivex.rxjava3.core.Scheduler toRx(Scheduler scheduler) {
        Objects.requireNonNull(scheduler, "scheduler");
        if (scheduler instanceof RxToSenderScheduler) {
            return ((RxToSenderScheduler) scheduler).rx;
        }
        return new SenderToRxScheduler(scheduler);
    }
}
