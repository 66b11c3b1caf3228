package dev.senders.spring.boot;

import dev.senders.Hooks;
import dev.senders.scope.ScopeTrace;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The error handler of the starter's scope: logs each error of spawned work that nobody else
 * handled, once, at {@code ERROR}, through SLF4J (logger {@code dev.senders.spring.boot.SpawnErrorLogger}),
 * with the scope's name, the work's name when it was spawned with one (read from the
 * {@link ScopeTrace} the scope adds to the error), and the stack trace:
 * {@code Work 'send-audit-event' spawned into scope 'orders' failed}. The scope calls it on the thread that completes the
 * failed work, before the work is released (so a join never completes before the line is logged),
 * and counts the error in {@code errorCount()}; work spawned through {@link ScopeSpawner} has the
 * spawning request's context (MDC, trace) installed while it runs. The error never reaches the
 * thread's uncaught-exception handler.
 *
 * <p>The starter defines it as a bean ({@code sendersSpawnErrorLogger}) and gives it to its scope.
 * {@link #listen} adds a listener to this logger only (so to this scope's errors only): test
 * support registers one per test to fail the test whose work failed. Listeners are called with
 * each error, in registration order, before it is logged, on the same thread; they must be fast
 * and must not throw (what one throws goes to {@link Hooks#onErrorDropped}, and the others are
 * still called). Without a listener, logging an error costs one volatile read more.
 */
public final class SpawnErrorLogger implements Consumer<Throwable> {

    private static final Logger log = LoggerFactory.getLogger(SpawnErrorLogger.class);

    private final String scopeName;
    private final CopyOnWriteArrayList<Consumer<? super Throwable>> listeners = new CopyOnWriteArrayList<>();

    /** A registered listener; {@link #close()} removes it. */
    public interface Registration extends AutoCloseable {
        /** Removes the listener; idempotent. */
        @Override
        void close();
    }

    /**
     * A logger for the scope named {@code scopeName}.
     *
     * @param scopeName the name in each log line
     */
    public SpawnErrorLogger(String scopeName) {
        this.scopeName = Objects.requireNonNull(scopeName, "scopeName");
    }

    /**
     * The name of the scope whose errors this logger logs.
     *
     * @return the scope's name
     */
    public String scopeName() {
        return scopeName;
    }

    /**
     * Adds {@code listener}, which from now on receives each error this logger is given, until the
     * registration is closed. Adding the same listener twice registers it twice.
     *
     * @param listener called with each error, on the thread that completes the failed work
     * @return its registration, to close when done
     * @throws NullPointerException if {@code listener} is null
     */
    public Registration listen(Consumer<? super Throwable> listener) {
        Objects.requireNonNull(listener, "listener");
        Consumer<? super Throwable> entry = listener::accept; // its own identity: removal removes this registration only
        listeners.add(entry);
        return () -> listeners.remove(entry);
    }

    @Override
    public void accept(Throwable error) {
        if (!listeners.isEmpty()) {
            for (Consumer<? super Throwable> l : listeners) {
                try {
                    l.accept(error);
                } catch (RuntimeException | Error listenerFailure) {
                    Hooks.onErrorDropped(listenerFailure);
                }
            }
        }
        Optional<String> work = ScopeTrace.find(error).flatMap(ScopeTrace::workName);
        if (work.isPresent()) {
            log.error("Work '{}' spawned into scope '{}' failed", work.get(), scopeName, error);
        } else {
            log.error("Work spawned into scope '{}' failed", scopeName, error);
        }
    }

    @Override
    public String toString() {
        return "SpawnErrorLogger[" + scopeName + "]";
    }
}
