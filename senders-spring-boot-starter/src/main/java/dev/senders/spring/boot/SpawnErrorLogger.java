package dev.senders.spring.boot;

import dev.senders.scope.ScopeTrace;
import java.util.Objects;
import java.util.Optional;
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
 * thread's uncaught-exception handler. Each error is also passed to the
 * {@link SpawnErrorListeners}, if any, before it is logged.
 */
public final class SpawnErrorLogger implements Consumer<Throwable> {

    private static final Logger log = LoggerFactory.getLogger(SpawnErrorLogger.class);

    private final String scopeName;

    /**
     * A logger for the scope named {@code scopeName}.
     *
     * @param scopeName the name in each log line
     */
    public SpawnErrorLogger(String scopeName) {
        this.scopeName = Objects.requireNonNull(scopeName, "scopeName");
    }

    @Override
    public void accept(Throwable error) {
        SpawnErrorListeners.publish(scopeName, error);
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
