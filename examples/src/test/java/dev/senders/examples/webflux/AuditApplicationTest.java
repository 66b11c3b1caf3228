package dev.senders.examples.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.test.ApplicationScope;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The application while it serves (the shutdown stories are in {@link ScopedShutdownTest} and its
 * siblings, which close the context themselves): requests are answered at once, the side effects
 * run in the starter's application scope and get written. {@code senders-test} (a test dependency)
 * makes the test wait for that scope after the method and fail on audit work that failed or still
 * runs; {@link ApplicationScope#awaitIdle()} is the wait inside the test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "audit.write-delay=10ms",
        "audit.db-url=jdbc:h2:mem:serving;DB_CLOSE_DELAY=-1"})
class AuditApplicationTest {

    @LocalServerPort
    int port;
    @Autowired
    AuditStore store;
    @Autowired
    Auditor auditor;
    @Autowired
    CountingScope scope;

    @Test
    @DisplayName("POST /orders/{id} answers 202 at once; the audit write runs in the open application scope")
    void ordersAreAcceptedAndAudited() throws Exception {
        WebClient client = WebClient.create("http://127.0.0.1:" + port);
        for (int i = 0; i < 20; i++) {
            var answer = ShutdownTestSupport.placeOrder(client, "o" + i).block(Duration.ofSeconds(10));
            assertEquals(202, answer.status());
            assertEquals("order o" + i + " accepted", answer.body());
        }
        assertEquals(ScopeState.OPEN, scope.state());

        ApplicationScope.awaitIdle();                            // every audit write has completed
        assertEquals(0, auditor.running());
        assertEquals(20, store.count());
        Map<String, Long> stats = client.get().uri("/audit/stats").retrieve()
                .bodyToMono(new ParameterizedTypeReference<Map<String, Long>>() { })
                .block(Duration.ofSeconds(10));
        assertEquals(20, stats.get("accepted"));
        assertEquals(20, stats.get("written"));
        assertEquals(0, stats.get("refused"));
        assertEquals(0, stats.get("failed"));
    }
}
