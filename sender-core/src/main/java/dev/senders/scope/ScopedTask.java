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
 *     before it ran: it completes stopped, and a later {@code run()} by the executor does nothing;
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
 * or a cancellation before it ran) or {@code REJECTED} (the executor refused it). Transitions:
 * {@code NEW -> thread} (run), {@code thread -> INTERRUPTED} (stop callback, which then interrupts
 * the thread), {@code thread|INTERRUPTED -> DONE} (run, after the command), {@code NEW -> CANCELLED}
 * (stop or cancel), {@code NEW -> REJECTED} (start). Whoever leaves {@code NEW} completes the
 * receiver, so the association is released exactly once.
 *
 * <p>{@code registration} goes {@code null -> StopCallback} (start, after registering) and
 * {@code * -> CLOSED} (the completer, which closes what it took). The runner closes it before it
 * leaves the running state: {@link StopCallback#close()} waits for a stop callback running on
 * another thread, so an interrupt is only ever delivered while the command (or that close) is
 * still running on the thread.
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
    /** True while {@code execute} is in {@code Scopes.spawn} on the submitting thread (plain: one thread). */
    boolean submitting;
    /** What the executor threw while {@link #submitting} (plain: read on the same thread). */
    @Nullable Throwable submitFailure;

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
                if (submitting) {
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
        Nulls.nonNull(receiver).setStopped();
        return true;
    }

    /** The scope's (or the receiver's) stop: cancel if not started, interrupt if running. */
    private void onStop() {
        for (;;) {
            Object s = state;
            if (s == NEW) {
                if (STATE.compareAndSet(this, NEW, CANCELLED)) {
                    // a future's get() must not wait for ever; one its user cancelled first is
                    // theirs, not a task this stop found never started
                    if (!(command instanceof ScopedFuture) || ((ScopedFuture<?>) command).cancel(false)) {
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
