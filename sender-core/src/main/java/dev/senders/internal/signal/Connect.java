package dev.senders.internal.signal;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;

/**
 * "Connect and check": the one place where the library calls a sender's {@code connect} or a
 * scheduler's {@code schedule()} that it does not control (shared by the algorithms, the scopes,
 * the task and the adapters; not public API).
 *
 * <p>A {@code null} from either is a broken sender or scheduler. Left unchecked it surfaces later
 * as a bare {@code NullPointerException} at {@code start}, after the caller has taken resources
 * for the operation (a scope association, a place among siblings), which then are never given
 * back. These methods turn it into a {@link ProtocolViolationException} naming the offending
 * class, thrown where {@code connect}/{@code schedule} would have thrown, so every call site
 * handles it on the path it already has for a throwing {@code connect}: it releases what it took
 * and completes its receiver with the error (or, where the caller is a {@code connect} itself,
 * lets it propagate).
 *
 * @see Sender#connect(Receiver)
 * @see Scheduler#schedule()
 */
public final class Connect {

    private Connect() {}

    /**
     * {@code sender.connect(receiver)}, checked: never returns {@code null}.
     *
     * @throws ProtocolViolationException if {@code connect} returned {@code null}
     */
    public static <T> OperationState checked(Sender<? extends T> sender, Receiver<? super T> receiver) {
        OperationState op = sender.connect(receiver);
        if (op == null) {
            throw new ProtocolViolationException(sender.getClass().getName()
                    + ".connect returned null instead of an operation state: the sender is broken"
                    + " (connect must return the operation to start, or throw)");
        }
        return op;
    }

    /**
     * {@code scheduler.schedule()}, checked: never returns {@code null}.
     *
     * @throws ProtocolViolationException if {@code schedule()} returned {@code null}
     */
    public static Sender<Void> schedule(Scheduler scheduler) {
        Sender<Void> s = scheduler.schedule();
        if (s == null) {
            throw new ProtocolViolationException(scheduler.getClass().getName()
                    + ".schedule() returned null instead of a sender: the scheduler is broken"
                    + " (schedule() must return a sender that completes on the scheduler)");
        }
        return s;
    }

    /** {@code checked(schedule(scheduler), receiver)}: the schedule operation of a hop. */
    public static OperationState schedule(Scheduler scheduler, Receiver<? super Void> receiver) {
        return checked(schedule(scheduler), receiver);
    }
}
