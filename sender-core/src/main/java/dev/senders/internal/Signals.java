package dev.senders.internal;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Receiver;

/**
 * Delivery helpers shared by the library's senders. Not public API: may change without notice.
 *
 * <p>They implement the throwing rule of {@link Receiver}: a receiver that throws from
 * {@code setValue} gets the exception through {@code setError}; one that throws from
 * {@code setError} or {@code setStopped} has it passed to {@link Hooks#onErrorDropped}. Fatal JVM
 * errors are never converted: they propagate.
 */
public final class Signals {

    private Signals() {}

    public static <T> void setValue(Receiver<? super T> r, T value) {
        try {
            r.setValue(value);
        } catch (Throwable t) {
            throwIfFatal(t);
            setError(r, t);
        }
    }

    public static void setError(Receiver<?> r, Throwable error) {
        try {
            r.setError(error);
        } catch (Throwable t) {
            throwIfFatal(t);
            if (t != error) {
                t.addSuppressed(error);
            }
            Hooks.onErrorDropped(t);
        }
    }

    public static void setStopped(Receiver<?> r) {
        try {
            r.setStopped();
        } catch (Throwable t) {
            throwIfFatal(t);
            Hooks.onErrorDropped(t);
        }
    }

    /** Starts {@code op}; a {@code start()} that throws is turned into {@code r}'s error. */
    public static void start(OperationState op, Receiver<?> r) {
        try {
            op.start();
        } catch (Throwable t) {
            throwIfFatal(t);
            setError(r, t);
        }
    }

    /**
     * Rethrows errors no library code may turn into a signal: {@link VirtualMachineError}s (out of
     * memory, stack overflow, internal error) and {@link LinkageError}s.
     */
    public static void throwIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError) {
            throw (VirtualMachineError) t;
        }
        if (t instanceof LinkageError) {
            throw (LinkageError) t;
        }
    }
}
