package dev.senders.examples.webflux;

import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrders;
import static dev.senders.examples.webflux.ShutdownTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.examples.webflux.ShutdownTestSupport.Answer;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * When the side effects outlast {@code senders.scope.shutdown.grace}, the starter's shutdown
 * requests stop on them (their publishers are cancelled) and waits until they have ended: each
 * accepted side effect is accounted for, written or stopped, and the scope is joined before the
 * context finishes closing.
 */
class ScopedStopTest {

    static final int ORDERS = 200;
    static final String DB = "jdbc:h2:mem:scoped-stop;DB_CLOSE_DELAY=-1";

    @Test
    @DisplayName("grace exceeded: the scope's stop request cancels what is left; written + stopped = accepted")
    void graceExceeded_requestsStopOnWhatIsLeft() throws Exception {
        ConfigurableApplicationContext context = ShutdownTestSupport.start(
                "audit.mode=scope", "senders.scope.shutdown.grace=300ms", "audit.db-url=" + DB);
        GatedAuditStore store = context.getBean(GatedAuditStore.class);
        AuditService service = context.getBean(AuditService.class);
        CountingScope scope = context.getBean(CountingScope.class);
        WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));

        List<Answer> answers = placeOrders(client, "order-", ORDERS);
        long accepted = answers.stream().filter(Answer::accepted).count();
        assertEquals(ORDERS, accepted);
        assertTrue(store.firstWriteWaiting.await(10, TimeUnit.SECONDS), "the side effects are running");

        // The gate stays shut: the join times out and the scope's stop request cancels every write.
        CompletableFuture.runAsync(context::close).get(20, TimeUnit.SECONDS);   // hang guard only

        Map<String, Long> stats = service.stats();
        assertEquals(ScopeState.JOINED, scope.state(), "the scope was joined before close() returned");
        assertEquals(0, stats.get("running"));
        assertEquals(accepted, stats.get("written") + stats.get("stopped"), "every side effect accounted for: " + stats);
        assertEquals(accepted, stats.get("stopped"), "none could finish: all were stopped " + stats);
        assertEquals(0, rows(DB));
        store.gate.countDown();
    }
}
