package dev.senders.examples.webflux;

import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrder;
import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrders;
import static dev.senders.examples.webflux.ShutdownTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.examples.webflux.ShutdownTestSupport.Answer;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The user story: a WebFlux service spawns its audit writes into an application scope; shutting
 * the context down while every one of them is still running loses none, and requests that arrive
 * after the scope closed are answered {@code 503}.
 */
class ScopedShutdownTest {

    static final int ORDERS = 300;
    static final String DB = "jdbc:h2:mem:scoped-shutdown;DB_CLOSE_DELAY=-1";

    @Test
    @DisplayName("graceful shutdown joins the audit scope: rows = accepted requests; requests after close get 503")
    void shutdownJoinsEverySideEffect_andRefusesLateRequests() throws Exception {
        ConfigurableApplicationContext context = ShutdownTestSupport.start(
                "audit.mode=scope", "audit.shutdown-timeout=20s", "audit.db-url=" + DB);
        GatedAuditStore store = context.getBean(GatedAuditStore.class);
        AuditService service = context.getBean(AuditService.class);
        AuditScope scope = (AuditScope) context.getBean(Auditor.class);
        WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));

        List<Answer> answers = placeOrders(client, "order-", ORDERS);
        long accepted = answers.stream().filter(Answer::accepted).count();
        assertEquals(ORDERS, accepted, "every request before shutdown is accepted");
        assertTrue(store.firstWriteWaiting.await(10, TimeUnit.SECONDS), "the side effects are running");
        assertEquals(0, rows(DB), "gated: nothing can be written yet");

        CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);

        // Probe until the scope is closed; a probe that slips in before that is accepted work too.
        int late = 0;
        Answer probe;
        do {
            assertFalse(closed.isDone(), "the context cannot finish closing while side effects run");
            probe = placeOrder(client, "probe-" + late++).block(Duration.ofSeconds(10));
            if (probe.accepted()) {
                accepted++;
            }
        } while (probe.accepted());
        List<Answer> afterClose = placeOrders(client, "late-", 20);
        for (Answer a : afterClose) {
            assertEquals(503, a.status(), "a request after close is refused, visibly");
            assertEquals(OrderHandler.SHUTTING_DOWN, a.body());
        }
        assertFalse(scope.state().isOpen(), "the scope is closed: " + scope.state());
        assertFalse(closed.isDone(), "shutdown is waiting for the side effects");

        store.gate.countDown();                                  // let the side effects finish
        closed.get(20, TimeUnit.SECONDS);                        // hang guard only

        assertEquals(accepted, rows(DB), "every accepted side effect was written");
        assertEquals(ScopeState.JOINED, scope.state());
        assertEquals(0, service.stats().get("stopped"));
        assertEquals(0, service.stats().get("failed"));
        assertEquals(accepted, service.stats().get("written"));
        assertEquals(21, service.stats().get("refused"));
    }
}
