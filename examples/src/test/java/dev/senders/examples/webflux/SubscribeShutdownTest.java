package dev.senders.examples.webflux;

import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrders;
import static dev.senders.examples.webflux.ShutdownTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.examples.webflux.ShutdownTestSupport.Answer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The same service and the same shutdown as {@link ScopedShutdownTest}, with plain
 * {@code mono.subscribe()} in place of the scope: shutdown does not wait, and the side effects that
 * were still running are lost although every request was answered "accepted".
 */
class SubscribeShutdownTest {

    static final int ORDERS = 300;
    static final String DB = "jdbc:h2:mem:subscribe-shutdown;DB_CLOSE_DELAY=-1";

    @Test
    @DisplayName("plain subscribe(): shutdown does not wait, accepted side effects are lost (rows < accepted)")
    void plainSubscribe_losesAcceptedSideEffectsOnShutdown() throws Exception {
        ConfigurableApplicationContext context = ShutdownTestSupport.start(
                "audit.mode=subscribe", "audit.db-url=" + DB);
        GatedAuditStore store = context.getBean(GatedAuditStore.class);
        WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));

        List<Answer> answers = placeOrders(client, "order-", ORDERS);
        long accepted = answers.stream().filter(Answer::accepted).count();
        assertEquals(ORDERS, accepted, "every request is answered 'accepted'");
        assertTrue(store.firstWriteWaiting.await(10, TimeUnit.SECONDS), "the side effects are running");

        // Nothing owns the side effects: close() returns while every one of them is still waiting.
        CompletableFuture.runAsync(context::close).get(20, TimeUnit.SECONDS);   // hang guard only
        store.gate.countDown();                                  // too late: the writer pool is gone

        long written = rows(DB);
        assertTrue(written < accepted, "lost side effects: " + written + " rows for " + accepted + " accepted requests");
    }
}
