package dev.senders.internal.signal;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * An operation that completes its receiver inline, on the thread that starts it (the operation
 * of {@code just}, {@code justError}, {@code justStopped}, {@code read}, of an unassociated nest or
 * future, of the inline scheduler's {@code schedule()}); not public API. It also carries the library's one
 * rule for a second {@code start} ({@link #startedTwice}), which every operation state of the
 * library applies.
 *
 * <p><b>Double start.</b> {@code start()} is called at most once per operation. A second call
 * throws {@link ProtocolViolationException} (an {@link IllegalStateException}) to the caller and
 * changes nothing: the receiver has, or will have, exactly one completion. Starts one after the
 * other are always detected; two starts racing on two threads are a data race of the caller,
 * detected by the operations whose start is an atomic transition anyway.
 *
 * @see OperationState#start()
 */
public final class ImmediateOperation<T> implements OperationState {

    /** Completes with the value. */
    public static final byte VALUE = 0;
    /** Completes with the error (the payload). */
    public static final byte ERROR = 1;
    /** Completes stopped. */
    public static final byte STOPPED = 2;
    /** Completes stopped if the receiver's stop was requested, else with the value: a schedule operation. */
    public static final byte SCHEDULE = 3;
    /**
     * Completes with the receiver's env's value for the query (the payload), or with the error
     * the lookup threw: {@code read}'s operation.
     */
    public static final byte READ = 4;

    private final Receiver<? super T> receiver;
    private final byte kind;
    private final @Nullable Object payload;
    private boolean started;

    public ImmediateOperation(Receiver<? super T> receiver, byte kind, @Nullable Object payload) {
        this.receiver = receiver;
        this.kind = kind;
        this.payload = payload;
    }

    /** The operation of {@code justStopped()} and of work a closed scope refused. */
    public static <T> OperationState stopped(Receiver<? super T> receiver) {
        return new ImmediateOperation<T>(receiver, STOPPED, null);
    }

    /** The exception for a second {@code start()} of {@code operation} (its name or the object itself). */
    public static ProtocolViolationException startedTwice(Object operation) {
        return new ProtocolViolationException("start() was called twice on " + operation
                + "; an operation state is started at most once");
    }

    @Override
    @SuppressWarnings("unchecked")
    public void start() {
        if (started) {
            throw startedTwice(this);
        }
        started = true;
        switch (kind) {
            case VALUE:
                Signals.setValue(receiver, (T) payload);
                break;
            case ERROR:
                Signals.setError(receiver, (Throwable) Nulls.nonNull(payload)); // ERROR carries the error
                break;
            case STOPPED:
                Signals.setStopped(receiver);
                break;
            case READ:
                T v;
                try {
                    v = receiver.env().get((Query<T>) Nulls.nonNull(payload)); // READ carries the query
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    Signals.setError(receiver, t);
                    return;
                }
                Signals.setValue(receiver, v);
                break;
            default:
                if (receiver.env().stopToken().stopRequested()) {
                    Signals.setStopped(receiver);
                } else {
                    Signals.setValue(receiver, (T) payload);
                }
        }
    }

    @Override
    public String toString() {
        return "operation[" + (kind == VALUE ? "value" : kind == ERROR ? "error" : kind == STOPPED ? "stopped"
                : kind == READ ? "read " + payload : "schedule") + (started ? ", started" : "") + "]";
    }
}
