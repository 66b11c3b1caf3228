package dev.senders.examples.webflux;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Builds the audit side effect of an order and hands it to the {@link Auditor}; keeps the tally
 * that {@code GET /audit/stats} shows.
 */
public final class AuditService {

    private final AuditStore store;
    private final Scheduler writers;
    private final Auditor auditor;
    private final LongAdder accepted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder stopped = new LongAdder();

    public AuditService(AuditStore store, Scheduler writers, Auditor auditor) {
        this.store = Objects.requireNonNull(store, "store");
        this.writers = Objects.requireNonNull(writers, "writers");
        this.auditor = Objects.requireNonNull(auditor, "auditor");
    }

    /**
     * Starts the audit write of {@code orderId} in the background.
     *
     * @return {@code false} if the write was refused: the application is shutting down, or the
     *         scope holds {@code senders.scope.max-outstanding} writes already
     */
    public boolean audit(String orderId) {
        Objects.requireNonNull(orderId, "orderId");
        Mono<Void> write = Mono.<Void>fromRunnable(() -> {
                    try {
                        store.record(orderId);                   // blocking JDBC: off the event loop
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("audit write of order " + orderId + " interrupted", e);
                    } catch (Exception e) {
                        throw new IllegalStateException("audit write of order " + orderId + " failed", e);
                    }
                })
                .subscribeOn(writers)
                .doOnSuccess(v -> written.increment())
                .doOnCancel(stopped::increment);               // the scope's stop request cancels it
        if (auditor.submit(write)) {
            accepted.increment();
            return true;
        }
        refused.increment();
        return false;
    }

    /**
     * Whether the auditor still takes work in general (it may refuse a write while full).
     *
     * @return {@code false} once the application is shutting down
     */
    public boolean accepting() {
        return auditor.accepting();
    }

    /** accepted, refused, written, stopped, failed, running. */
    public Map<String, Long> stats() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("accepted", accepted.sum());
        m.put("refused", refused.sum());
        m.put("written", written.sum());
        m.put("stopped", stopped.sum());
        m.put("failed", auditor.failed());
        m.put("running", auditor.running());
        return m;
    }
}
