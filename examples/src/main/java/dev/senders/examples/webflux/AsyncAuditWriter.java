package dev.senders.examples.webflux;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.scheduling.annotation.Async;

/**
 * The audit write as an {@code @Async} method: it runs on Spring Boot's {@code applicationTaskExecutor},
 * which the senders starter puts into the application scope. Shutdown therefore waits for these
 * writes as it does for spawned work, interrupts the ones that outlive the grace (and cancels the
 * ones still queued), and lists them as {@code AsyncAuditWriter#write}.
 */
public class AsyncAuditWriter {

    private final AuditStore store;
    private final LongAdder started = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder interrupted = new LongAdder();
    private final LongAdder failed = new LongAdder();

    public AsyncAuditWriter(AuditStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Writes the audit row of {@code orderId} on the task executor (blocking JDBC, slow). */
    @Async
    public void write(String orderId) {
        started.increment();
        try {
            store.record(orderId);
            written.increment();
        } catch (InterruptedException e) {               // the scope's stop request, past the grace
            interrupted.increment();
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failed.increment();
            throw new IllegalStateException("audit write of order " + orderId + " failed", e);
        }
    }

    /** started, written, interrupted, failed. */
    public Map<String, Long> stats() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("started", started.sum());
        m.put("written", written.sum());
        m.put("interrupted", interrupted.sum());
        m.put("failed", failed.sum());
        return m;
    }
}
