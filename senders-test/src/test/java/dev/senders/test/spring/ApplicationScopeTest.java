package dev.senders.test.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.test.ApplicationScope;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The user story: a handler answers 202 and audits in the background; each test asserts the
 * audit after one line, and the second test of the same cached context is served too (the
 * application scope stays open: no 503).
 */
@SpringBootTest(classes = AuditApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.address=127.0.0.1")
@TestMethodOrder(MethodOrderer.MethodName.class)
class ApplicationScopeTest {

    @LocalServerPort
    int port;
    @Autowired
    Queue<String> audits;
    @Autowired
    CountingScope scope;

    @Test
    void a_anOrderIsAuditedAfterTheAnswer() {
        audits.clear();
        assertEquals(202, new AuditClient(port).post("/orders/1?ms=200"));
        ApplicationScope.awaitIdle();
        assertEquals(List.of("1"), List.copyOf(audits));
    }

    @Test
    void b_theNextTestOfTheSameContextIsServedAndAuditedToo() {
        audits.clear();
        AuditClient client = new AuditClient(port);
        assertEquals(202, client.post("/orders/2?ms=100"));
        assertEquals(202, client.post("/orders/3?ms=10"));
        ApplicationScope.awaitIdle();
        assertEquals(2, audits.size());
        assertTrue(audits.containsAll(List.of("2", "3")));
        assertEquals(ScopeState.OPEN, scope.state());
    }
}
