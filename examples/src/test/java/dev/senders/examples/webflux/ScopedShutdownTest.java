package dev.senders.examples.webflux;

import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrder;
import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrders;
import static dev.senders.examples.webflux.ShutdownTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.examples.webflux.ShutdownTestSupport.Answer;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * The user story: a WebFlux service spawns its audit writes into the starter's application scope;
 * shutting the context down while every one of them is still running loses none. The scope closes
 * once the web server has drained its requests and stopped, and the context finishes closing only
 * after the writes are done; a request that finds the scope closed is refused with {@code 503}.
 */
class ScopedShutdownTest {

    static final int ORDERS = 300;
    static final String DB = "jdbc:h2:mem:scoped-shutdown;DB_CLOSE_DELAY=-1";

    @Test
    @DisplayName("graceful shutdown: server drains and stops, then the scope joins every audit write: rows = accepted")
    void shutdownJoinsEverySideEffect() throws Exception {
        ConfigurableApplicationContext context = ShutdownTestSupport.start(
                "audit.mode=scope", "senders.scope.shutdown.grace=20s", "audit.db-url=" + DB);
        GatedAuditStore store = context.getBean(GatedAuditStore.class);
        AuditService service = context.getBean(AuditService.class);
        CountingScope scope = context.getBean(CountingScope.class);
        WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));

        List<Answer> answers = placeOrders(client, "order-", ORDERS);
        long accepted = answers.stream().filter(Answer::accepted).count();
        assertEquals(ORDERS, accepted, "every request before shutdown is accepted");
        assertTrue(store.firstWriteWaiting.await(10, TimeUnit.SECONDS), "the side effects are running");
        assertEquals(0, rows(DB), "gated: nothing can be written yet");

        CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);

        // close() then join(): the scope is CLOSED for a moment before the shutdown's join starts
        Awaitility.await("the scope closed and joins").atMost(Duration.ofSeconds(10))
                .until(() -> !scope.state().isOpen() && scope.state() != ScopeState.CLOSED);
        assertEquals(ScopeState.CLOSED_AND_JOINING, scope.state(), "closed, waiting for the writes");
        assertThrows(WebClientRequestException.class,
                () -> placeOrder(client, "late").block(Duration.ofSeconds(10)),
                "the web server stopped before the scope closed: a late request finds no server");
        assertFalse(closed.isDone(), "the context cannot finish closing while side effects run");

        store.gate.countDown();                                  // let the side effects finish
        closed.get(20, TimeUnit.SECONDS);                        // hang guard only

        assertEquals(accepted, rows(DB), "every accepted side effect was written");
        assertEquals(ScopeState.JOINED, scope.state());
        assertEquals(0, service.stats().get("stopped"));
        assertEquals(0, service.stats().get("failed"));
        assertEquals(accepted, service.stats().get("written"));
        assertEquals(0, service.stats().get("refused"));
    }

    @Test
    @DisplayName("a request that finds the scope closed is refused as a whole: 503, nothing written")
    void aRequestThatFindsTheScopeClosedIsRefused() throws Exception {
        String db = "jdbc:h2:mem:scoped-refused;DB_CLOSE_DELAY=-1";
        ConfigurableApplicationContext context = ShutdownTestSupport.start("audit.mode=scope", "audit.db-url=" + db);
        try {
            AuditService service = context.getBean(AuditService.class);
            WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));
            context.getBean(CountingScope.class).close();       // as shutdown would, with the server still up

            Answer answer = placeOrder(client, "after-close").block(Duration.ofSeconds(10));
            assertEquals(503, answer.status());
            assertEquals(OrderHandler.SHUTTING_DOWN, answer.body());
            assertEquals(1, service.stats().get("refused"));
            assertEquals(0, service.stats().get("accepted"));
            assertEquals(0, rows(db));
        } finally {
            context.close();
        }
    }
}
