package dev.senders.test;

import dev.senders.Hooks;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import java.util.Objects;

/**
 * The errors a test's work produced: those given to {@link #accept} (a scope's error handler) and
 * every error that reached {@link Hooks#onErrorDropped} while the capture was open, and debug
 * capture switched on for that time.
 *
 * <p>Dropped errors and debug capture are process-wide: while at least one capture is open, a
 * dispatcher is installed with {@link Hooks#setOnErrorDropped}; it hands each dropped error to
 * every open capture (tests running in parallel cannot tell whose it is, so each sees it) and
 * then to the handler that was installed before. The last capture to close puts that handler
 * back (unless the test installed another in the meantime, which is then left alone) and
 * switches debug capture off again if it was off. {@code LOCK} guards the install and the
 * restore; {@code OPEN} is read by the dispatcher without it.
 */
final class ErrorCapture implements Consumer<Throwable> {

    private static final Object LOCK = new Object();
    private static final Set<ErrorCapture> OPEN = ConcurrentHashMap.newKeySet();
    private static int users; // guarded by LOCK
    private static @Nullable Consumer<? super Throwable> previous; // guarded by LOCK
    private static boolean debugWasOn; // guarded by LOCK
    private static final Consumer<Throwable> DISPATCHER = ErrorCapture::dispatch;
    private static volatile @Nullable Consumer<? super Throwable> forwardTo;

    private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    private ErrorCapture() {}

    /** Opens a capture: from now on it records dropped errors, and debug capture is on. */
    static ErrorCapture open() {
        ErrorCapture c = new ErrorCapture();
        synchronized (LOCK) {
            if (users++ == 0) {
                previous = Hooks.getOnErrorDropped();
                forwardTo = previous;
                debugWasOn = Hooks.isDebugCaptureEnabled();
                Hooks.setOnErrorDropped(DISPATCHER);
                Hooks.enableDebugCapture();
            }
            OPEN.add(c);
        }
        return c;
    }

    /** Stops recording; the last open capture restores the hooks. Idempotent. */
    void close() {
        synchronized (LOCK) {
            if (closed) {
                return;
            }
            closed = true;
            OPEN.remove(this);
            if (--users == 0) {
                if (Hooks.getOnErrorDropped() == DISPATCHER) {
                    Hooks.setOnErrorDropped(Objects.requireNonNull(previous)); // saved by the first open
                }
                if (!debugWasOn) {
                    Hooks.disableDebugCapture();
                }
                previous = null;
                forwardTo = null;
            }
        }
    }

    /** Records {@code error} unless closed: the error handler of a test's scope. */
    @Override
    public void accept(Throwable error) {
        if (!closed) {
            errors.add(error);
        }
    }

    /** What was recorded, in order. */
    List<Throwable> errors() {
        return new ArrayList<>(errors);
    }

    private static void dispatch(Throwable error) {
        for (ErrorCapture c : OPEN) {
            c.accept(error);
        }
        Consumer<? super Throwable> next = forwardTo;
        if (next != null) {
            next.accept(error);
        }
    }
}
