package dev.senders.task;

import java.util.concurrent.CancellationException;

/**
 * Unwinds a task body whose {@link Task.Context#await await} completed with {@code setStopped}
 * (P3552R0 "Result type for co_await": a stopped {@code co_await} never resumes the coroutine and
 * the task completes {@code set_stopped}).
 *
 * <p>Java cannot leave a thread's frames without resuming them, so the body is unwound by this
 * unchecked exception instead: {@code finally} blocks and try-with-resources run (as destructors
 * do in C++) and see this exception. Catching it does <em>not</em> turn the stop into a value:
 * once an await completed stopped, the task completes {@code setStopped} whatever the body does
 * afterwards, unless the body calls {@link Task.Context#clearStopped()} (the explicit opt-out).
 *
 * <p>A body may also throw one itself to complete the task stopped (for example after it saw
 * {@link Task.Context#stopToken()} requested). It has no stack trace: it is a control-flow signal,
 * as cheap as {@code co_await just_stopped()}.
 */
public class TaskStoppedException extends CancellationException {

    private static final long serialVersionUID = 1L;

    /** A stop signal with the default message. */
    public TaskStoppedException() {
        this("the awaited sender completed with setStopped");
    }

    /**
     * A stop signal with the given message.
     *
     * @param message the detail message
     */
    public TaskStoppedException(String message) {
        super(message);
    }

    /** No stack trace: this is a control-flow signal, thrown once per stopped await. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
