package dev.senders.scope;

import dev.senders.Sender;
import dev.senders.Senders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * An {@link java.util.concurrent.ExecutorService} view of a {@link CountingScope} over an
 * {@link Executor} of your own: every task submitted here runs on that executor and is work of the
 * scope, counted from submission until it ends, so the scope's {@code join()} (and
 * {@link Scopes#joinOrStop}) waits for it, its {@code requestStop()} cancels or interrupts it, and
 * a named task is listed in {@link CountingScope#outstanding()}.
 *
 * <pre>{@code
 * ExecutorService tasks = ScopeExecutor.of(pool, scope);
 * tasks.execute(ScopeExecutor.named(() -> audit(order), "audit-" + order.id()));
 * Future<Receipt> receipt = tasks.submit(() -> charge(order));
 * ...
 * tasks.shutdown();                                   // scope.close()
 * tasks.awaitTermination(30, TimeUnit.SECONDS);       // join, with a deadline
 * }</pre>
 *
 * <h2>Tasks</h2>
 * <ul>
 * <li>{@code execute}/{@code submit} associate the task with the scope on the calling thread
 *     ({@code token.tryAssociate()}), then hand it to the executor. The association is released
 *     exactly once: when the task has run (on the executor's thread, after the task returned),
 *     when the executor rejects it, or when it is cancelled before it ran (a stop request on the
 *     scope, or {@code cancel} on its future: released on the cancelling thread, at once, even if
 *     the executor still holds the task; the executor's later {@code run()} then does nothing).
 *     Whatever the executor does with the task (runs it, runs it twice: the second run is a
 *     no-op; rejects it; never runs it), the association is released once, except that a task
 *     the executor silently drops (a {@code ThreadPoolExecutor.DiscardPolicy} or
 *     {@code DiscardOldestPolicy}) gives the view no signal: it stays associated until a stop
 *     request on the scope cancels it, and {@link #shutdownNow()} returns it.
 * <li>Every task {@code execute} accepted (returned normally) is run, or cancelled by a stop
 *     request or its future's {@code cancel} before it ran; one that a stop cancels is returned
 *     by the {@link #shutdownNow()} that requested it. A stop that comes while {@code execute}
 *     is still handing the task over makes {@code execute} reject it instead.
 * <li>A closed scope, and a full one (at its {@code maxOutstanding} limit), refuses tasks with a
 *     {@link RejectedExecutionException} that says which, and the scope counts the refusal
 *     ({@code refusedCount(RefusalReason)}); a scope whose stop was requested refuses them too.
 *     The executor's own rejection is thrown to the submitter as it is (except for a task
 *     submitted from inside more than 16 nested starts on one thread, whose hand-over
 *     {@link Scopes#spawn} defers until the outer start returns: that rejection is an error of
 *     the scope).
 * <li>An exception thrown by a task given to {@code execute} is an error of the scope, as spawned
 *     work's errors are: it goes to the scope's error handler (on the executor's thread, before
 *     the association is released) and counts in {@code errorCount()}. The future of
 *     {@code submit}, {@code invokeAll} and {@code invokeAny} keeps its task's exception instead.
 * <li>A stop request on the scope ({@code requestStop()}, {@link #shutdownNow()},
 *     {@link Scopes#joinOrStop} after its grace) cancels the tasks that have not started (their
 *     futures are cancelled, including a future that a {@code Future} given to {@code execute}
 *     wraps, as {@link java.util.concurrent.ExecutorCompletionService} and so {@code invokeAny}
 *     do) and interrupts the threads running the others; such an interrupt is cleared when its
 *     task returns, so it never reaches the executor's next task.
 * <li>{@link #named(Runnable, String)} and {@link #named(Callable, String)} name a task: the scope
 *     lists it in {@code outstanding()} while it is queued or running (kind {@code spawn}), and
 *     names it in shutdown reports and its errors' {@link ScopeTrace}. Unnamed tasks are counted
 *     (and listed under debug capture), as unnamed spawned work is.
 * </ul>
 *
 * <h2>Lifecycle</h2>
 * The view's lifecycle is the scope's: {@link #shutdown()} is {@code close()},
 * {@link #shutdownNow()} is {@code close()} plus {@code requestStop()}, {@link #isShutdown()} says
 * whether the scope is closed (by anyone), {@link #isTerminated()} whether it is closed with
 * nothing associated, and {@link #awaitTermination} joins it with a deadline (it blocks). The
 * executor underneath is yours: the view never shuts it down. Work spawned into the scope by other
 * means counts too: the view terminates when the whole scope has.
 *
 * <h2>Differences from a plain ExecutorService</h2>
 * Everything else follows the {@code ExecutorService} contract (checked by the JSR-166 TCK's
 * executor tests run over views of several executors). These differ on purpose:
 * <ul>
 * <li>{@link #shutdown()} closes the scope and never shuts the executor down: its threads, and the
 *     other work it serves, go on.
 * <li>The lifecycle is the whole scope's: work spawned into it by other means keeps the view from
 *     terminating, and a {@code close()} or {@code requestStop()} on the scope shuts the view down.
 *     A scope whose stop was requested refuses tasks while {@code isShutdown()} may still say
 *     {@code false} (an open scope that was stopped).
 * <li>{@link #shutdownNow()} returns only the tasks its own stop request cancelled (empty if the
 *     scope's stop had already been requested), and cancels their futures, which
 *     {@code ThreadPoolExecutor} leaves pending. A task given to the executor while a nested
 *     start deferred its hand-over (a spawn loop more than 16 starts deep) and stopped before it
 *     was handed over is cancelled but listed nowhere.
 * <li>A task's future cancelled before it ran releases its association at once; the executor may
 *     still hold the task, whose run then does nothing.
 * <li>An exception from a task given to {@code execute} goes to the scope's error handler, not to
 *     the thread's uncaught-exception handler.
 * <li>A task the executor silently drops stays associated until a stop request (see Tasks).
 * <li>{@link #awaitTermination} on a scope still open waits for {@code shutdown()} or
 *     {@code shutdownNow()} on this view; a {@code close()} on the scope itself is seen at the
 *     deadline.
 * </ul>
 *
 * <p>Thread safety: all methods may be called from any thread.
 */
public final class ScopeExecutor extends AbstractExecutorService {

    /**
     * How a view spawns each task into its scope: the task is a single-shot {@code Sender<Void>}
     * whose start hands it to the executor. The default is {@code Scopes.spawn(name == null ? task
     * : Scopes.named(task, name), scope.getToken())}; an integration that counts or decorates the
     * work it spawns (a framework's spawner) can spawn through its own path instead, as long as the
     * task is spawned into the view's scope, connected once and started at once.
     */
    @FunctionalInterface
    public interface Spawner {
        /**
         * Spawns {@code task} into the scope, under {@code name} when it is not null.
         *
         * @param task the task's sender (connect it once, start it at once)
         * @param name the task's name, or null for an unnamed task
         * @return {@code true} if it was spawned, {@code false} if the scope refused it
         */
        boolean spawn(Sender<Void> task, @Nullable String name);
    }

    private final Executor executor;
    private final CountingScope scope;
    private final Spawner spawner;
    private final CountDownLatch shutdownCalled = new CountDownLatch(1);
    /**
     * The future {@code newTaskFor} made last on this thread and no {@code execute} has taken yet.
     * Only {@code java.util.concurrent} calls {@code newTaskFor}, and always right before handing
     * the future, or a wrapper around it, to {@code execute} on the same thread.
     */
    private static final ThreadLocal<ScopedFuture<?>> MADE = new ThreadLocal<>();
    /** On the thread in {@link #shutdownNow()}: where the stop callbacks put the tasks they cancelled. */
    private final ThreadLocal<List<Runnable>> drained = new ThreadLocal<>();

    private ScopeExecutor(Executor executor, CountingScope scope, Spawner spawner) {
        this.executor = executor;
        this.scope = scope;
        this.spawner = spawner;
    }

    /**
     * An executor service whose tasks run on {@code executor} as work of {@code scope}.
     *
     * @param executor where the tasks run (a pool, a virtual-thread-per-task executor, ...); the
     *        view never shuts it down
     * @param scope the scope the tasks belong to
     * @return the view
     * @throws NullPointerException if an argument is null
     */
    public static ScopeExecutor of(Executor executor, CountingScope scope) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(scope, "scope");
        if (executor instanceof ScopeExecutor && ((ScopeExecutor) executor).scope == scope) {
            return (ScopeExecutor) executor;
        }
        AsyncScopeToken token = scope.getToken();
        return new ScopeExecutor(executor, scope,
                (task, name) -> Scopes.spawn(name == null ? task : Scopes.named(task, name), token));
    }

    /**
     * As {@link #of(Executor, CountingScope)}, with each task spawned by {@code spawner} (for
     * integrations that count or decorate what they spawn, such as the Spring Boot starter).
     *
     * @param executor where the tasks run; the view never shuts it down
     * @param scope the scope the tasks belong to; {@code spawner} must spawn into it
     * @param spawner spawns each task into {@code scope}
     * @return the view
     * @throws NullPointerException if an argument is null
     */
    public static ScopeExecutor of(Executor executor, CountingScope scope, Spawner spawner) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(spawner, "spawner");
        return new ScopeExecutor(executor, scope, spawner);
    }

    /**
     * {@code task} with a name under which a {@link ScopeExecutor} lists it in the scope's
     * {@code outstanding()} and names it in reports. Run anywhere else, it is {@code task} itself.
     *
     * @param task the task
     * @param name its name, e.g. {@code "audit-" + id}
     * @return the named task
     * @throws NullPointerException if an argument is null
     */
    public static Runnable named(Runnable task, String name) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(name, "name");
        return new NamedTask<Void>(task, null, name);
    }

    /**
     * {@code task} with a name, as {@link #named(Runnable, String)}, for {@code submit},
     * {@code invokeAll} and {@code invokeAny}.
     *
     * @param <V> the task's result type
     * @param task the task
     * @param name its name
     * @return the named task
     * @throws NullPointerException if an argument is null
     */
    public static <V> Callable<V> named(Callable<V> task, String name) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(name, "name");
        return new NamedTask<>(null, task, name);
    }

    /**
     * The scope whose work the tasks are.
     *
     * @return the scope
     */
    public CountingScope scope() {
        return scope;
    }

    /**
     * The executor the tasks run on.
     *
     * @return the executor
     */
    public Executor executor() {
        return executor;
    }

    /**
     * Associates {@code command} with the scope and hands it to the executor (see the class
     * comment for when the association is released and where an exception goes).
     *
     * @param command the task
     * @throws RejectedExecutionException if the scope is closed, full, or its stop was requested
     *         (the message says which), or if the executor rejected the task (its exception)
     * @throws NullPointerException if {@code command} is null
     */
    @Override
    public void execute(Runnable command) {
        ScopedFuture<?> made = MADE.get(); // a future newTaskFor made on this thread, for this execute
        if (made != null) {
            MADE.set(null);
        }
        Objects.requireNonNull(command, "command");
        if (scope.stopToken().stopRequested()) {
            throw stopRefusal();
        }
        ScopedTask task = new ScopedTask(this, command, executor);
        String name = null;
        ScopedFuture<?> f = command instanceof ScopedFuture ? (ScopedFuture<?>) command
                : made != null && command instanceof Future ? made // a completion service's wrapper around it
                : null;
        if (f != null) {
            f.task = task;
            task.future = f;
            name = f.name;
        } else if (command instanceof NamedTask) {
            name = ((NamedTask<?>) command).name;
        }
        boolean spawned;
        task.submitter = Thread.currentThread();
        try {
            spawned = spawner.spawn(task, name);
        } finally {
            task.submitter = null;
        }
        if (!spawned) {
            task.refused(); // a later cancel of its future has nothing to complete
            throw new RejectedExecutionException(refusal());
        }
        Throwable failed = task.submitFailure;
        if (failed != null) {
            if (failed instanceof RejectedExecutionException) {
                throw (RejectedExecutionException) failed;
            }
            throw new RejectedExecutionException("the executor failed to accept the task: " + failed, failed);
        }
    }

    /** The refusal of a task submitted after the scope's stop was requested. */
    RejectedExecutionException stopRefusal() {
        return new RejectedExecutionException(scopeText() + " has had its stop requested (shutdownNow() or"
                + " requestStop()): it runs no new tasks; submit them before shutting it down, or to another executor");
    }

    private String refusal() {
        ScopeState s = scope.state();
        if (!s.isOpen()) {
            return scopeText() + " is closed (shutdown(), shutdownNow() or close() was called): it accepts no new"
                    + " tasks; submit them before shutting it down, or to another executor";
        }
        return scopeText() + " is full: it holds " + scope.count() + " operation(s), its maxOutstanding limit of "
                + scope.maxOutstanding() + "; submit again once some of its work has ended, or raise the limit"
                + " (setMaxOutstanding)";
    }

    private String scopeText() {
        return "scope '" + scope.name() + "'";
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        ScopedFuture<T> f = new ScopedFuture<>(runnable, value,
                runnable instanceof NamedTask ? ((NamedTask<?>) runnable).name : null);
        MADE.set(f);
        return f;
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        ScopedFuture<T> f = new ScopedFuture<>(callable, callable instanceof NamedTask ? ((NamedTask<?>) callable).name : null);
        MADE.set(f);
        return f;
    }

    /** Called by a task's stop callback that cancelled it before it ran. */
    void neverStarted(Runnable command) {
        List<Runnable> list = drained.get();
        if (list != null) {
            list.add(command);
        }
    }

    /**
     * Closes the scope: tasks already submitted still run, new ones are refused. Does not wait
     * (see {@link #awaitTermination}).
     */
    @Override
    public void shutdown() {
        scope.close();
        shutdownCalled.countDown();
    }

    /**
     * Closes the scope and requests stop on it: tasks that have not started are cancelled (and
     * their futures), the threads running the others are interrupted, and all other work of the
     * scope is asked to stop. Does not wait for the running tasks to end.
     *
     * @return the tasks that never started and were cancelled by this call (those still queued on
     *         the executor, and those it silently dropped), in no particular order, as they were
     *         given to {@code execute} (for {@code submit}: their cancelled futures); empty if the
     *         scope's stop had already been requested
     */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        List<Runnable> list = new ArrayList<>();
        drained.set(list);
        try {
            scope.requestStop(); // runs the stop callbacks on this thread
        } finally {
            drained.remove();
        }
        return list;
    }

    /**
     * Whether the scope is closed ({@link #shutdown()}, {@link #shutdownNow()}, or its own
     * {@code close()}).
     *
     * @return whether new tasks are refused
     */
    @Override
    public boolean isShutdown() {
        return !scope.state().isOpen();
    }

    /**
     * Whether the scope is closed and nothing is associated with it any more (no task queued or
     * running, and no other work of the scope).
     *
     * @return whether the scope is closed and idle for good
     */
    @Override
    public boolean isTerminated() {
        return !scope.state().isOpen() && scope.count() == 0;
    }

    /**
     * Blocks until the scope is closed and joined (every task and all other work of the scope has
     * ended), or the timeout passes, or this thread is interrupted. While the scope is still open
     * it waits for {@link #shutdown()} or {@link #shutdownNow()} on this view (a {@code close()}
     * on the scope itself is seen at the deadline). Starting the wait joins the scope once it is
     * closed (a P3149 {@code join}). A terminated view returns {@code true} at once, whatever the
     * timeout; otherwise a timeout of zero or less returns {@code false} at once.
     *
     * @param timeout how long to wait at most
     * @param unit the unit of {@code timeout}
     * @return {@code true} if the scope terminated, {@code false} if the timeout passed first
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException on a thread that must not block (see
     *         {@link dev.senders.Hooks#isNonBlockingThread})
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout); // saturates: Long.MIN_VALUE and Long.MAX_VALUE stay in range
        if (isTerminated()) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        long start = System.nanoTime();
        if (scope.state().isOpen()) {
            shutdownCalled.await(nanos, TimeUnit.NANOSECONDS);
            if (scope.state().isOpen()) {
                return false;
            }
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long left = nanos - (System.nanoTime() - start);
        if (left <= 0L) {
            return isTerminated();
        }
        try {
            Senders.syncWait(scope.join(), Duration.ofNanos(left));
            return true;
        } catch (TimeoutException late) {
            return isTerminated();
        } catch (CancellationException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.interrupted(); // syncWait set it again; the exception reports it
                throw (InterruptedException) e.getCause();
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "ScopeExecutor[" + scope + " over " + executor + "]";
    }
}
