package dev.senders.internal;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * The operation of {@code schedule()} on a scheduler that hands one task to something else to run:
 * an {@code Executor} ({@code Schedulers.fromExecutor}), a Reactor scheduler
 * ({@code ReactorSchedulers.from}) or an RxJava scheduler ({@code RxSchedulers.from}). Not public
 * API: may change without notice.
 *
 * <p>Contract, for every such scheduler:
 * <ul>
 * <li>{@code start()} {@linkplain #submit submits} this operation, whose {@link #run()} is the
 *     task. When the task runs first it completes the receiver on the task's thread with
 *     {@code setValue(null)}; without a cancel handle, with {@code setStopped()} instead if stop
 *     has been requested on the receiver's token by then (see below).
 * <li>A stop request before the task runs completes the receiver with {@code setStopped()} at
 *     once, on the requesting thread, and {@linkplain #cancel cancels} the task if the scheduler
 *     gave a handle for it. A token already stopped at {@code start} completes stopped inline and
 *     submits nothing.
 * <li>A scheduler that refuses the task (its submission throws, or the handle it returns says
 *     {@linkplain #refused refused}) completes the receiver with that error, on the starting
 *     thread. A submission that throws after the task has run or been stopped loses to it: the
 *     exception goes to {@link #dropped}.
 * <li>Exactly one completion, whatever the interleaving; a second {@code start()} throws
 *     {@link dev.senders.ProtocolViolationException} and changes nothing.
 * </ul>
 */
public abstract class ScheduleOperation<H> implements OperationState, Runnable {

    /*
     * Implementation notes.
     *
     * One state word:
     *   bit 0 STARTED    start() ran (set by CAS from 0: a second start, even a racing one, fails)
     *   bit 1 HANDLE     the handle returned by submit() is in `handle` (written before the bit)
     *   bit 2 RAN        the task claimed the completion
     *   bit 3 CANCELLED  the stop callback, or a refusal, claimed the completion
     * RAN and CANCELLED exclude each other (one CAS claims either). The handle is cancelled only by
     * the stop's claimer and only if the task has not run: cancelling a running task may interrupt
     * its thread, which would hit the receiver's code. If the stop wins before the handle is known,
     * start() cancels it when it sets HANDLE.
     *
     * A scheduler without a handle (an Executor) registers the operation itself as its stop
     * callback, so that a registration allocates nothing more: run() then serves both, and tells
     * them apart by the token (a stop request is exactly what makes it complete stopped). With a
     * handle the stop callback is a separate method, which cancels the task, and the task always
     * completes with the value once it claimed the operation.
     */

    private static final int STARTED = 1, HANDLE = 2, RAN = 4, CANCELLED = 8, DONE = RAN | CANCELLED;

    private final Receiver<? super Void> receiver;
    private final boolean cancellable;
    private @Nullable H handle;
    private @Nullable StopCallback stopCallback;
    private volatile int state;

    /**
     * @param receiver    the schedule operation's receiver
     * @param cancellable whether {@link #submit} returns a handle that {@link #cancel} can use
     */
    protected ScheduleOperation(Receiver<? super Void> receiver, boolean cancellable) {
        this.receiver = receiver;
        this.cancellable = cancellable;
    }

    /**
     * Hands this operation (a {@link Runnable}, the task) to the scheduler, on the starting thread.
     *
     * @return the handle to cancel the task with, or {@code null} when there is none
     * @throws RuntimeException the scheduler's refusal
     */
    protected abstract @Nullable H submit();

    /**
     * Cancels a task that has not run, after a stop request won; at most once. Does nothing unless
     * overridden.
     *
     * @param handle what {@link #submit} returned
     */
    protected void cancel(H handle) {}

    /**
     * Whether the handle shows that the scheduler took the task but will never run it, checked
     * once, right after {@link #submit} returned, if the task has not completed by then.
     *
     * @param handle what {@link #submit} returned
     * @return the error to complete the receiver with, or {@code null} if the task was accepted
     */
    protected @Nullable Throwable refused(H handle) {
        return null;
    }

    /**
     * An exception of {@link #submit} that came after the operation had completed. Goes to
     * {@link Hooks#onErrorDropped} unless overridden.
     *
     * @param error the submission's exception
     */
    protected void dropped(Throwable error) {
        Hooks.onErrorDropped(error);
    }

    @Override
    public final void start() {
        if (!STATE.compareAndSet(this, 0, STARTED)) {
            throw ImmediateOperation.startedTwice(this);
        }
        StopToken token = receiver.env().stopToken();
        if (token.stopRequested()) {
            state = STARTED | CANCELLED;
            Signals.setStopped(receiver);
            return;
        }
        if (token.stopPossible()) {
            stopCallback = token.onStop(cancellable ? this::stop : this);
            if ((state & DONE) != 0) {
                return; // the callback ran inline (stop raced start): completed, submit nothing
            }
        }
        H h;
        try {
            h = submit();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            if (claim(CANCELLED)) {
                Signals.setError(receiver, t);
            } else {
                dropped(t); // the task ran (or was stopped) before the scheduler threw
            }
            return;
        }
        if (h == null) {
            return;
        }
        handle = h;
        int prev = (int) STATE.getAndBitwiseOr(this, HANDLE);
        if ((prev & CANCELLED) != 0) {
            cancel(h); // the stop came first and could not see the handle
        } else if ((prev & RAN) == 0) {
            Throwable refusal = refused(h);
            if (refusal != null && claim(CANCELLED)) {
                Signals.setError(receiver, refusal);
            }
        }
    }

    /** The task, on the scheduler's thread (and, without a handle, the stop callback). */
    @Override
    public final void run() {
        if (claim(RAN)) {
            if (cancellable) {
                Signals.setValue(receiver, null);
            } else {
                complete(receiver); // maybe called as the stop callback: the token tells which
            }
        }
    }

    /**
     * How every scheduler's task completes its receiver, on the task's thread: stopped if stop has
     * been requested on the receiver's token by then, else with {@code setValue(null)}.
     *
     * @param receiver the schedule operation's receiver
     */
    public static void complete(Receiver<? super Void> receiver) {
        if (receiver.env().stopToken().stopRequested()) {
            Signals.setStopped(receiver);
        } else {
            Signals.setValue(receiver, null);
        }
    }

    /** The stop callback of a scheduler with a handle. */
    private void stop() {
        int s;
        do {
            s = state;
            if ((s & DONE) != 0) {
                return;
            }
        } while (!STATE.compareAndSet(this, s, s | CANCELLED));
        if ((s & HANDLE) != 0) {
            cancel(Nulls.nonNull(handle)); // HANDLE is set after the handle is written
        }
        Signals.setStopped(receiver);
    }

    /** Claims the completion for {@code bit} unless it is taken, and closes the stop callback. */
    private boolean claim(int bit) {
        int s;
        do {
            s = state;
            if ((s & DONE) != 0) {
                return false;
            }
        } while (!STATE.compareAndSet(this, s, s | bit));
        StopCallback cb = stopCallback;
        if (cb != null) {
            stopCallback = null;
            cb.close(); // from inside the callback itself, this returns at once
        }
        return true;
    }

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), ScheduleOperation.class, "state", int.class);
}
