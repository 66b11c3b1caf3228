package dev.senders;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where errors that cannot be delivered go, so that none vanishes.
 *
 * <p>An error is "dropped" when there is no receiver left to take it: a stop callback that threw,
 * a receiver that threw from {@code setError} or {@code setStopped}, a second completion from a
 * foreign sender (a {@link ProtocolViolationException}), an error from {@code spawn}ed work whose
 * scope has no handler. The default handler passes the error to the current thread's
 * {@link Thread.UncaughtExceptionHandler}, as {@code RxJavaPlugins.onError} does. Tests and
 * applications may install their own (like Reactor's {@code Hooks.onErrorDropped}).
 */
public final class Hooks {

    private static final Consumer<Throwable> DEFAULT = Hooks::toUncaughtExceptionHandler;

    private static volatile Consumer<? super Throwable> onErrorDropped = DEFAULT;

    private Hooks() {}

    /**
     * Reports an error that no receiver can take. Never throws.
     *
     * @param error the dropped error
     */
    public static void onErrorDropped(Throwable error) {
        Objects.requireNonNull(error, "error");
        try {
            onErrorDropped.accept(error);
        } catch (Throwable handlerFailure) {
            handlerFailure.addSuppressed(error);
            toUncaughtExceptionHandler(handlerFailure);
        }
    }

    /**
     * Installs the handler for dropped errors (process-wide).
     *
     * @param handler the handler that receives every dropped error from now on
     */
    public static void setOnErrorDropped(Consumer<? super Throwable> handler) {
        onErrorDropped = Objects.requireNonNull(handler, "handler");
    }

    /** Restores the default handler: the current thread's uncaught-exception handler. */
    public static void resetOnErrorDropped() {
        onErrorDropped = DEFAULT;
    }

    private static void toUncaughtExceptionHandler(Throwable error) {
        Thread t = Thread.currentThread();
        Thread.UncaughtExceptionHandler h = t.getUncaughtExceptionHandler();
        if (h != null) {
            h.uncaughtException(t, error);
        }
    }
}
