package dev.senders.examples.webflux;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code POST /orders/{id}} answers at once and leaves the audit write running in the
 * background; {@code GET /audit/stats} shows the tally. {@code POST /orders/{id}/async} does the
 * same through an {@code @Async} method ({@link AsyncAuditWriter}); {@code GET /audit/async/stats}
 * shows its tally.
 */
public final class OrderHandler {

    /** The body of the answer to a request that arrives after the audit scope was closed. */
    public static final String SHUTTING_DOWN = "shutting down: order not accepted, nothing was done";

    /** The body of the answer to a request that finds the audit scope full (senders.scope.max-outstanding). */
    public static final String BUSY = "busy: too many audit writes in flight; order not accepted, nothing was done";

    private final AuditService audit;
    private final AsyncAuditWriter asyncWriter;
    private final LongAdder asyncAccepted = new LongAdder();
    private final LongAdder asyncRefused = new LongAdder();

    public OrderHandler(AuditService audit, AsyncAuditWriter asyncWriter) {
        this.audit = java.util.Objects.requireNonNull(audit, "audit");
        this.asyncWriter = java.util.Objects.requireNonNull(asyncWriter, "asyncWriter");
    }

    public Mono<ServerResponse> placeOrderAsync(ServerRequest request) {
        String id = request.pathVariable("id");
        try {
            asyncWriter.write(id);                        // queued on the task executor, in the scope
        } catch (RejectedExecutionException refused) {    // the scope is full, or closed: shutting down
            asyncRefused.increment();
            return refused();
        }
        asyncAccepted.increment();
        return ServerResponse.accepted().contentType(MediaType.TEXT_PLAIN).bodyValue("order " + id + " accepted");
    }

    public Mono<ServerResponse> asyncStats(ServerRequest request) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(asyncStats());
    }

    /** accepted, refused, and the writer's started, written, interrupted, failed. */
    public Map<String, Long> asyncStats() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("accepted", asyncAccepted.sum());
        m.put("refused", asyncRefused.sum());
        m.putAll(asyncWriter.stats());
        return m;
    }

    /**
     * 503 for work the audit scope refused. A scope never reopens: if it is open now, it refused
     * because it was full, and capacity comes back as writes end; if it is closed, the application
     * is leaving.
     */
    private Mono<ServerResponse> refused() {
        boolean full = audit.accepting();
        return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", full ? "1" : "5")
                .contentType(MediaType.TEXT_PLAIN)
                .bodyValue(full ? BUSY : SHUTTING_DOWN);
    }

    public Mono<ServerResponse> placeOrder(ServerRequest request) {
        String id = request.pathVariable("id");
        if (audit.audit(id)) {
            return ServerResponse.accepted().contentType(MediaType.TEXT_PLAIN).bodyValue("order " + id + " accepted");
        }
        // The audit scope refused the write: refuse the whole request, visibly, so that no order is
        // taken without its audit record. A load balancer or client retries 503s (elsewhere, or
        // after Retry-After).
        return refused();
    }

    public Mono<ServerResponse> stats(ServerRequest request) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(audit.stats());
    }
}
