package dev.senders.task;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopToken;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * A lazy task (P3552R0 {@code lazy<T>}, Java style): a sender whose body is ordinary imperative
 * Java that can {@linkplain Context#await await} any sender.
 *
 * <pre>{@code
 * Task<Integer> sum = Task.of(ctx -> {
 *     int a = ctx.await(fetchA());          // blocks this task's thread only
 *     int b = ctx.await(fetchB(a));
 *     return a + b;
 * });
 * int s = Senders.syncWait(sum);
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 * <li><b>Lazy and multi-shot.</b> {@link #of} and {@link #connect} run nothing; each
 *     {@code start} of a connected operation runs the body once, on its own thread.
 * <li><b>Its own thread.</b> The body runs on a thread of its own: a new virtual thread when the
 *     running JDK has them (looked up at run time; the library needs no JDK 21 to build), else a
 *     thread of a cached pool of daemon threads, or a thread of the {@link Executor} given to
 *     {@link #of(Executor, Body)}. {@link Context#await} parks only that thread; a loop of a
 *     million awaits is a plain loop and cannot overflow the stack. An await of a sender that
 *     completes before its {@code start} returns does not park at all.
 * <li><b>Scheduler affinity</b> (P3552R0 "Scheduler Affinity"), in its strongest form: the
 *     body's code after an await runs on the task's own thread, never on the thread that
 *     completed the awaited sender. {@link Context#runOn} runs a block elsewhere, explicitly.
 * <li><b>Completion</b>, on the task's thread after the body has returned or thrown (the body is
 *     never running once the receiver is completed):
 *     <ul>
 *     <li>the body returns {@code v}: {@code setValue(v)};
 *     <li>an await completed stopped (the body is unwound by {@link TaskStoppedException}), or
 *         the body threw a {@code TaskStoppedException}: {@code setStopped()}, whatever the body
 *         does after the stopped await, unless it calls {@link Context#clearStopped()};
 *     <li>the body called {@link Context#fail(Throwable)}: {@code setError} with that error;
 *     <li>the body threw {@code e}: {@code setError(e)}, except an {@link InterruptedException}
 *         after stop was requested on the task, which completes {@code setStopped()};
 *         a {@link VirtualMachineError} or {@link LinkageError} is delivered through
 *         {@code setError} as well, and then rethrown on the task's thread (C8).
 *     </ul>
 *     If stop was requested before the body began, the body does not run and the task completes
 *     {@code setStopped()}: on the thread that started it when the request came before
 *     {@code start}, else on the thread that requested stop, at once (as a scheduler's
 *     {@code schedule()} does), so a task whose executor dropped it ({@code shutdownNow}) still
 *     ends once stop is requested. If the executor throws after the body began, the exception
 *     goes to {@link dev.senders.Hooks#onErrorDropped}: the completion follows the body.
 *     Starting the operation twice throws {@link dev.senders.ProtocolViolationException}.
 * <li><b>Stop.</b> A stop request on the receiver's token reaches the sender being awaited (its
 *     receiver's env carries the task's own stop token, fired by the receiver's) and interrupts
 *     the body's thread, so a body blocked elsewhere ({@code Thread.sleep}, a blocking queue)
 *     wakes with {@link InterruptedException}.
 * </ul>
 *
 * @param <T> the value type
 */
public final class Task<T> implements Sender<T> {

    private final Executor executor;
    private final Body<T> body;

    private Task(Executor executor, Body<T> body) {
        this.executor = executor;
        this.body = body;
    }

    /**
     * A task whose body runs on a new virtual thread when the JDK has them, else on a thread of a
     * shared cached pool of daemon threads.
     *
     * @param <T> the value type
     * @param body the code to run on each start
     * @return a task (a sender) of the body's result
     * @throws NullPointerException if {@code body} is null
     */
    public static <T> Task<T> of(Body<T> body) {
        return new Task<>(TaskThreads.DEFAULT, Objects.requireNonNull(body, "body"));
    }

    /**
     * A task whose body runs on a thread of {@code executor} (one {@link Executor#execute} per
     * start). The executor must run the body on a thread that may block for as long as the body
     * awaits: a bounded pool shared by tasks that await each other can deadlock. A rejected
     * execution completes the task with {@code setError}.
     *
     * @param <T> the value type
     * @param executor runs the body, once per start
     * @param body the code to run on each start
     * @return a task (a sender) of the body's result
     * @throws NullPointerException if an argument is null
     */
    public static <T> Task<T> of(Executor executor, Body<T> body) {
        return new Task<>(Objects.requireNonNull(executor, "executor"), Objects.requireNonNull(body, "body"));
    }

    /**
     * Whether {@link #of(Body)} runs bodies on virtual threads: true on a JDK 21+ unless the system
     * property {@code dev.senders.task.virtualThreads} was {@code false} when tasks were first used.
     *
     * @return {@code true} if task bodies run on virtual threads
     */
    public static boolean usesVirtualThreads() {
        return TaskThreads.virtualThreadsUsed();
    }

    /**
     * Whether {@code thread} is a virtual thread; always {@code false} on a JDK without them.
     *
     * @param thread the thread to test
     * @return {@code true} if {@code thread} is virtual
     */
    public static boolean isVirtual(Thread thread) {
        return TaskThreads.isVirtual(Objects.requireNonNull(thread, "thread"));
    }

    /** Connects a new run of the body; nothing runs until the operation is started. */
    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new TaskOperation<>(executor, body, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public String toString() {
        return "Task[" + body + " on " + executor + "]";
    }

    /**
     * A task's body: ordinary Java code that awaits senders through its {@link Context}.
     *
     * @param <T> the value type
     */
    @FunctionalInterface
    public interface Body<T> {
        /**
         * Runs the body on the task's thread. A thrown exception completes the task with
         * {@code setError} (see {@link Task} for the exact rules).
         *
         * @param ctx the task's context: await senders, report errors, read the env
         * @return the task's value (may be {@code null})
         * @throws Exception any exception, which completes the task with {@code setError}
         */
        T run(Context ctx) throws Exception;
    }

    /**
     * What a running body can do. Every method must be called on the task's own thread while the
     * body runs (an {@link IllegalStateException} otherwise), except the env reads
     * ({@link #env()}, {@link #stopToken()}, {@link #scheduler()}), which any thread may call.
     */
    public interface Context {

        /**
         * Connects {@code sender} to a receiver whose env is {@link #env()}, starts it and parks
         * this thread until it completes (P3552R0 {@code co_await sndr}):
         * <ul>
         * <li>{@code setValue(v)}: returns {@code v};
         * <li>{@code setError(e)}: throws {@code e} itself, the original object (a checked
         *     exception is thrown undeclared);
         * <li>{@code setStopped()}: throws {@link TaskStoppedException}; from then on the task
         *     completes {@code setStopped} whatever the body does, unless it calls
         *     {@link #clearStopped()}.
         * </ul>
         * If the sender completed before its {@code start} returned, no parking happens. The
         * interrupt status of this thread is preserved; an interrupt that arrives while the await
         * parks requests stop on the task (on {@link #stopToken()}).
         *
         * @param <U> the value type
         * @param sender the work to await
         * @return the sender's value (may be {@code null})
         */
        <U> @Nullable U await(Sender<U> sender);

        /**
         * Runs {@code block} on {@code scheduler} (after {@code schedule()} completes there) and
         * returns its result on the task's thread: the explicit way to run code somewhere else
         * (P3552R0 "explicit way to change the scheduler"; Kotlin's {@code withContext}). The
         * block runs on the scheduler's thread and must not call {@link #await}. Results are
         * reported as {@link #await} reports them.
         *
         * @param <U> the value type
         * @param scheduler where {@code block} runs
         * @param block the code to run there
         * @return {@code block}'s result
         */
        <U> @Nullable U runOn(Scheduler scheduler, Callable<? extends U> block);

        /**
         * Reports {@code error} without throwing (P3552R0 "Error Reporting", {@code co_yield
         * with_error(e)}): the task will complete {@code setError(error)} once the body returns,
         * whatever value it returns. Meant as {@code return ctx.fail(e);}; returns {@code null}.
         * The first of {@code fail} and a stopped await decides the outcome; a later error is
         * added as suppressed to the first error, or passed to
         * {@link dev.senders.Hooks#onErrorDropped} if the task is stopped, never lost.
         *
         * @param <R> the body's value type
         * @param error the error the task completes with
         * @return {@code null}, for {@code return ctx.fail(e);}
         */
        <R> @Nullable R fail(Throwable error);

        /**
         * The explicit opt-out from "a stopped await stops the task": forgets the stopped outcome
         * that an earlier await latched, so that the task completes according to what the body
         * does next (return a value, throw, fail).
         *
         * @return whether a stopped outcome was latched
         */
        boolean clearStopped();

        /**
         * The env the task's awaited senders see: the task receiver's env with its stop token
         * replaced by {@link #stopToken()}.
         *
         * @return the env of awaited senders
         */
        Env env();

        /**
         * The task's stop token: fired by a stop request on the receiver's token, or by an
         * interrupt of the task's thread while it parks in an await.
         *
         * @return the task's stop token
         */
        StopToken stopToken();

        /**
         * The scheduler of the task receiver's env, if it has one (children see the same).
         *
         * @return the scheduler, or {@code Optional.empty()} if the env has none
         */
        Optional<Scheduler> scheduler();

        /**
         * Whether the body runs on a virtual thread.
         *
         * @return {@code true} if the body runs on a virtual thread
         */
        boolean isVirtualThread();
    }
}
