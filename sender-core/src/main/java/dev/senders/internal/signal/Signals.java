package dev.senders.internal.signal;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import org.jspecify.annotations.Nullable;

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

    /**
     * Calls {@code r.setValue(value)}; if it throws, passes the exception to {@code r}'s
     * {@code setError}.
     *
     * @param <T> the value type
     * @param r the receiver to complete
     * @param value the value (may be {@code null})
     */
    public static <T> void setValue(Receiver<? super T> r, @Nullable T value) {
        try {
            r.setValue(value);
        } catch (Throwable t) {
            throwIfFatal(t);
            setError(r, t);
        }
    }

    /**
     * Calls {@code r.setError(error)}; if it throws, passes that exception (with {@code error}
     * suppressed in it) to {@link Hooks#onErrorDropped}.
     *
     * @param r the receiver to complete
     * @param error the error
     */
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

    /**
     * Calls {@code r.setStopped()}; if it throws, passes the exception to
     * {@link Hooks#onErrorDropped}.
     *
     * @param r the receiver to complete
     */
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
     * The violation reported for a completion that came after the first one: {@code message} says
     * what happened; the extra completion's own error, if it has one, is added as suppressed, so
     * that it is reported with the violation and never lost.
     *
     * @param message what happened, in plain words
     * @param error the extra completion's error, or {@code null} for a value or a stop
     * @return the exception to report
     */
    public static ProtocolViolationException extraCompletion(String message, @Nullable Throwable error) {
        ProtocolViolationException pve = new ProtocolViolationException(message);
        if (error != null) {
            pve.addSuppressed(error);
        }
        return pve;
    }

    /**
     * What an error handler threw while taking {@code error}: to {@link Hooks#onErrorDropped}, with
     * the error added as suppressed (a fatal JVM error propagates).
     *
     * @param thrown what the handler threw
     * @param error what it was handling
     */
    public static void handlerFailed(Throwable thrown, Throwable error) {
        throwIfFatal(thrown);
        if (thrown != error) {
            thrown.addSuppressed(error);
        }
        Hooks.onErrorDropped(thrown);
    }

    /**
     * Rethrows errors no library code may turn into a signal: {@link VirtualMachineError}s (out of
     * memory, stack overflow, internal error) and {@link LinkageError}s.
     *
     * @param t the throwable just caught
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
