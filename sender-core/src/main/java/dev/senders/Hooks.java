package dev.senders;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Process-wide hooks: where errors that cannot be delivered go, whether the library records where
 * work was spawned, and which threads must never block.
 *
 * <p><b>Dropped errors.</b> An error is "dropped" when there is no receiver left to take it: a
 * stop callback that threw, a receiver that threw from {@code setError} or {@code setStopped}, a
 * second completion from a foreign sender (a {@link ProtocolViolationException}), an error from
 * {@code spawn}ed work whose scope has no handler, a leaked scope. The default handler passes the
 * error to the current thread's {@link Thread.UncaughtExceptionHandler}, as
 * {@code RxJavaPlugins.onError} does. Tests and applications may install their own (like Reactor's
 * {@code Hooks.onErrorDropped}).
 *
 * <p><b>Debug capture</b> (off by default, like Reactor's {@code Hooks.onOperatorDebug()}): when on,
 * every piece of work associated with a library scope records the stack where it was spawned
 * (shown by {@code outstanding()}, shutdown reports and the errors of spawned work), and every
 * scope records where it was created (shown by leak reports). It costs one stack walk per spawn:
 * turn it on while hunting a stuck shutdown, not in production. Switch it on with
 * {@code -Ddev.senders.debug=true} or {@link #enableDebugCapture()}; it applies to work spawned
 * and scopes created afterwards. When off, the spawn path pays one volatile read for it.
 *
 * <p><b>Threads that must not block.</b> {@link Senders#syncWait} throws
 * {@link IllegalStateException} on a thread for which {@link #isNonBlockingThread(Thread)} is
 * true, as Reactor's {@code block()} does. Recognised without any dependency: threads implementing
 * Reactor's {@code reactor.core.scheduler.NonBlocking} or RxJava 3's
 * {@code io.reactivex.rxjava3.internal.schedulers.NonBlockingThread} marker (Reactor's
 * {@code parallel()}/{@code single()} threads, RxJava's {@code computation()}/{@code single()}
 * threads), Netty {@code FastThreadLocalThread}s whose {@code permitBlockingCalls()} is false
 * (event loops), and the library's own timer thread. Add your own with
 * {@link #addNonBlockingThreadPredicate(Predicate)}.
 */
public final class Hooks {

    private static final Consumer<Throwable> DEFAULT = Hooks::toUncaughtExceptionHandler;

    private static volatile Consumer<? super Throwable> onErrorDropped = DEFAULT;

    /** Read on every spawn: one volatile load. Initialised from {@code -Ddev.senders.debug}. */
    private static volatile boolean debugCapture = Boolean.getBoolean("dev.senders.debug");

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

    /**
     * The handler installed for dropped errors, so that a test support can wrap it and put it back
     * (as RxJava's {@code RxJavaPlugins.getErrorHandler()}).
     *
     * @return the current handler (the default one if none was installed)
     */
    public static Consumer<? super Throwable> getOnErrorDropped() {
        return onErrorDropped;
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

    // ------------------------------------------------------------------ debug capture

    /**
     * Turns debug capture on (process-wide): work spawned from now on records its spawn site,
     * scopes created from now on their creation site. Same as starting the JVM with
     * {@code -Ddev.senders.debug=true}.
     */
    public static void enableDebugCapture() {
        debugCapture = true;
    }

    /** Turns debug capture off; sites already recorded are kept until their work ends. */
    public static void disableDebugCapture() {
        debugCapture = false;
    }

    /**
     * Whether debug capture is on.
     *
     * @return {@code true} if spawn and creation sites are being recorded
     */
    public static boolean isDebugCaptureEnabled() {
        return debugCapture;
    }

    // ------------------------------------------------------------------ non-blocking threads

    /**
     * Whether {@code thread} must not block: one of the built-in kinds listed in the class
     * comment, or accepted by a predicate added with {@link #addNonBlockingThreadPredicate}. The
     * built-in check is one cached lookup per thread class.
     *
     * @param thread the thread to check
     * @return {@code true} if {@code thread} must not block
     * @throws NullPointerException if {@code thread} is null
     */
    public static boolean isNonBlockingThread(Thread thread) {
        return NonBlockingThreads.test(Objects.requireNonNull(thread, "thread"));
    }

    /**
     * Adds a predicate (process-wide) that marks more threads as non-blocking, for thread pools
     * the built-in check does not know. It is called on the thread that calls {@code syncWait},
     * with that thread; it must be fast and must not throw (a throwing predicate counts as false
     * and its exception goes to {@link #onErrorDropped}).
     *
     * @param predicate returns {@code true} for a thread that must not block
     * @throws NullPointerException if {@code predicate} is null
     */
    public static void addNonBlockingThreadPredicate(Predicate<? super Thread> predicate) {
        NonBlockingThreads.add(Objects.requireNonNull(predicate, "predicate"));
    }

    /** Removes every predicate added with {@link #addNonBlockingThreadPredicate}; the built-in check stays. */
    public static void resetNonBlockingThreadPredicates() {
        NonBlockingThreads.reset();
    }
}
