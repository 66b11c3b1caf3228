package dev.senders.scope;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * One task of a {@link ScopeExecutor}: a single-shot {@code Sender<Void>} that is spawned into the
 * scope when the task is submitted, and whose operation, when started, hands itself (a
 * {@link Runnable}) to the underlying executor. The scope's association is therefore held from
 * submission until exactly one of these ends the operation:
 *
 * <ul>
 * <li>the executor runs it: the command runs, then the operation completes with a value, or with
 *     the command's exception as an error (routed to the scope's error handler and counted; a
 *     {@code submit} future keeps its own, as {@link java.util.concurrent.FutureTask} does);
 * <li>a stop request (the scope's {@code requestStop()}) or the cancellation of its future comes
 *     before it ran: it completes stopped, and a later {@code run()} by the executor does nothing.
 *     A stop cancels the task's futures (so no {@code get()} waits for ever) and hands the command
 *     to the {@link ScopeExecutor#shutdownNow()} running on the stopping thread, if any; a stop
 *     that comes while the submitting thread is still registering the task (the scope's stop was
 *     requested after it accepted the task) instead rejects it to the submitter, so a task is
 *     never accepted, cancelled and reported nowhere;
 * <li>the executor rejects it ({@code execute} throws): it completes stopped and the submitter gets
 *     the exception (or, when the start was deferred by the trampoline, the scope's error handler
 *     does, as an error of the task).
 * </ul>
 *
 * A stop request while the command runs interrupts the thread running it, and that interrupt is
 * cleared when the command returns (it was meant for this task, not for the executor's next one).
 *
 * <h2>State encoding</h2>
 * {@code state} is one word (an {@code Object}, by CAS): {@code NEW} (submitted, not claimed), the
 * running {@link Thread} itself (claimed by {@code run()}), {@code INTERRUPTED} (running, and the
 * stop callback interrupted that thread), {@code DONE} (ran), {@code CANCELLED} (claimed by a stop
 * or a cancellation before it ran) or {@code REJECTED} (the executor, or the scope, refused it).
 * Transitions: {@code NEW -> thread} (run), {@code thread -> INTERRUPTED} (stop callback, which
 * then interrupts the thread), {@code thread|INTERRUPTED -> DONE} (run, after the command),
 * {@code NEW -> CANCELLED} (stop or cancel), {@code NEW -> REJECTED} (start, when the executor
 * throws; {@link #refused()}, when the scope refused the spawn and the task was never connected).
 * Whoever leaves {@code NEW} completes the receiver (except {@code refused()}, which has none), so
 * the association is released exactly once.
 *
 * <p>{@code registration} goes {@code null -> StopCallback} (start, after registering) and
 * {@code * -> CLOSED} (the completer, which closes what it took). The runner closes it before it
 * leaves the running state: {@link StopCallback#close()} waits for a stop callback running on
 * another thread, so an interrupt is only ever delivered while the command (or that close) is
 * still running on the thread.
 */
/*
 * Implementation notes.
 *
 * future: the ScopedFuture this task runs, set once before the spawn: the command itself
 * (submit, invokeAll) or the future that the command wraps (ExecutorCompletionService, and so
 * invokeAny, hands execute a QueueingFuture around the future it got from newTaskFor; the view
 * pairs them on the submitting thread). Cancelling it claims the task (ScopedFuture.done); a
 * claim by a stop cancels it, then the wrapping command, so the completion service's queue
 * receives the cancelled future.
 *
 * submitter: the thread in ScopeExecutor.execute while it spawns the task, else null. Written
 * and read plainly: only the submitting thread compares it with itself; any other thread reads
 * null or a thread that is not its own, and the outcome is the same.
 */
final class ScopedTask implements Sender<Void>, OperationState, Runnable, QueuedWork {

    private static final Object NEW = "NEW", INTERRUPTED = "INTERRUPTED", DONE = "DONE",
            CANCELLED = "CANCELLED", REJECTED = "REJECTED", CLOSED = "CLOSED";

    private final ScopeExecutor owner;
    private final Runnable command;
    private final Executor executor;
    private volatile Object state = NEW;
    private volatile @Nullable Object registration;
    private @Nullable Receiver<? super Void> receiver;
    /** The thread in {@code execute} while it spawns this task, else null (see the notes). */
    @Nullable Thread submitter;
    /** Why the task was refused while {@link #submitter} spawned it (plain: written and read on that thread). */
    @Nullable Throwable submitFailure;
    /** The future this task runs (the command, or the future the command wraps), or null; set before the spawn. */
    @Nullable ScopedFuture<?> future;

    ScopedTask(ScopeExecutor owner, Runnable command, Executor executor) {
        this.owner = owner;
        this.command = command;
        this.executor = executor;
    }

    /** Handed to the executor (or about to be) and not yet run, cancelled or rejected. */
    @Override
    public boolean queued() {
        return state == NEW;
    }

    Runnable command() {
        return command;
    }

    @Override
    public OperationState connect(Receiver<? super Void> r) {
        if (receiver != null) {
            throw new IllegalStateException("a scope executor's task is connected once, by the scope");
        }
        receiver = r;
        return this;
    }

    @Override
    public void start() {
        StopToken token = Nulls.nonNull(receiver).env().stopToken(); // set by connect
        if (token.stopPossible()) {
            StopCallback cb = token.onStop(this::onStop); // runs inline if stop was already requested
            if (!REGISTRATION.compareAndSet(this, null, cb)) {
                cb.close(); // completed already (stopped inline): nothing to deregister later
            }
        }
        if (state != NEW) {
            return;
        }
        try {
            executor.execute(this);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            if (STATE.compareAndSet(this, NEW, REJECTED)) {
                closeRegistration();
                if (submitter == Thread.currentThread()) {
                    submitFailure = t;
                    Nulls.nonNull(receiver).setStopped(); // set by connect, before start
                } else {
                    Nulls.nonNull(receiver).setError(t instanceof RejectedExecutionException ? t
                            : new RejectedExecutionException("the executor failed to accept the task: " + t, t));
                }
            }
            // else it was claimed (run, or cancelled) before the executor threw: that one completes
        }
    }

    @Override
    public void run() {
        Thread me = Thread.currentThread();
        if (!STATE.compareAndSet(this, NEW, me)) {
            return; // cancelled, rejected, or run already
        }
        Throwable failure = null;
        try {
            command.run();
        } catch (Throwable t) {
            failure = t;
        }
        closeRegistration(); // waits for a stop callback interrupting this thread right now
        if (STATE.getAndSet(this, DONE) == INTERRUPTED) {
            Thread.interrupted(); // the interrupt was meant for this task
        }
        if (failure == null) {
            Nulls.nonNull(receiver).setValue(null); // set by connect, before start
        } else {
            Nulls.nonNull(receiver).setError(failure);
            Signals.throwIfFatal(failure);
        }
    }

    /**
     * Cancels the task if it has not started: it completes stopped and never runs.
     *
     * @return whether this call cancelled it
     */
    boolean cancel() {
        if (!STATE.compareAndSet(this, NEW, CANCELLED)) {
            return false;
        }
        closeRegistration();
        if (command != future && command instanceof Future) {
            ((Future<?>) command).cancel(false); // the wrapper completes too (a completion service queues the future)
        }
        Nulls.nonNull(receiver).setStopped();
        return true;
    }

    /** The scope refused the spawn: the task was never connected, and nothing may complete it. */
    void refused() {
        STATE.compareAndSet(this, NEW, REJECTED);
    }

    /** The scope's (or the receiver's) stop: cancel if not started, interrupt if running. */
    private void onStop() {
        for (;;) {
            Object s = state;
            if (s == NEW) {
                if (STATE.compareAndSet(this, NEW, CANCELLED)) {
                    if (submitter == Thread.currentThread()) {
                        // the stop came between the scope accepting the task and its registration:
                        // execute has not returned, so it rejects the task (its futures stay as they are)
                        submitFailure = owner.stopRefusal();
                    } else if (cancelFutures()) {
                        owner.neverStarted(command);
                    }
                    closeRegistration(); // from inside the callback: returns at once
                    Nulls.nonNull(receiver).setStopped();
                    return;
                }
            } else if (s instanceof Thread) {
                if (STATE.compareAndSet(this, s, INTERRUPTED)) {
                    ((Thread) s).interrupt();
                    return;
                }
            } else {
                return;
            }
        }
    }

    /**
     * Cancels the task's future and then the command, when they are futures, so that no
     * {@code get()} waits for ever.
     *
     * @return false if its user had cancelled the future first (it is theirs, not a task this stop
     *         found never started)
     */
    private boolean cancelFutures() {
        boolean ours = true;
        ScopedFuture<?> f = future;
        if (f != null) {
            ours = f.cancel(false);
        }
        if (command != f && command instanceof Future) {
            boolean c = ((Future<?>) command).cancel(false);
            ours = f == null ? c : ours;
        }
        return ours;
    }

    private void closeRegistration() {
        Object r = REGISTRATION.getAndSet(this, CLOSED);
        if (r instanceof StopCallback) {
            ((StopCallback) r).close();
        }
    }

    @Override
    public String toString() {
        Object s = state;
        return "ScopedTask[" + (s instanceof Thread ? "running on " + ((Thread) s).getName() : s) + ", " + command + "]";
    }

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), ScopedTask.class, "state", Object.class);
    private static final VarHandle REGISTRATION = VarHandles.field(MethodHandles.lookup(), ScopedTask.class, "registration", Object.class);
}
