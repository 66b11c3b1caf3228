package dev.senders.stress;

import java.util.function.UnaryOperator;
import reactor.core.CoreSubscriber;

/**
 * A {@link CapturingMono} that, when subscribed, first schedules one task through a scheduler
 * hook entry ({@code Schedulers.onSchedule}, {@code RxJavaPlugins.onSchedule}) and keeps the
 * decorated task for an actor to run, as a scheduler's thread would. {@link #attributes()} tells,
 * from inside the task, whether the thread attributes what it schedules (the task was counted on
 * its work).
 */
final class SchedulingMono extends CapturingMono {

    private static final Runnable PROBE = () -> { };

    private final UnaryOperator<Runnable> hook;
    private Runnable body;
    private volatile Runnable task;

    SchedulingMono(UnaryOperator<Runnable> hook) {
        this.hook = hook;
    }

    /** Sets the body of the task to schedule at subscription (before it is subscribed). */
    void schedule(Runnable body) {
        this.body = body;
    }

    /** The decorated task (scheduled at subscription). */
    Runnable task() {
        return task;
    }

    /** From inside the task: whether a task scheduled now would be attributed to a work. */
    boolean attributes() {
        return hook.apply(PROBE) != PROBE;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Object> s) {
        task = hook.apply(body);
        super.subscribe(s);
    }
}
