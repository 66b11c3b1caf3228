package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("OutstandingSummary: the oldest few pieces of work, then counts, one screen at any size")
class OutstandingSummaryTest {

    @Test
    @DisplayName("at 100,000 outstanding the summary lists the oldest N, oldest first, and counts the rest by name and kind")
    void hundredThousandOutstanding_summaryStaysOneScreen() {
        CountingScope scope = new CountingScope("bulk");
        for (int i = 0; i < 100_000; i++) {
            String name = i % 4 == 0 ? "mail" : i < 10 ? "first-" + i : "audit";
            Scopes.spawn(Scopes.named(ParkedWork.INSTANCE, name), scope.getToken());
        }
        Scopes.spawn(ParkedWork.INSTANCE, scope.getToken()); // unnamed: counted, not listed

        OutstandingSummary s = OutstandingSummary.of(scope, 20);

        assertEquals(100_001, s.total());
        assertEquals(100_000, s.listed());
        assertEquals(1, s.unlisted());
        assertEquals(20, s.oldest().size());
        assertEquals(100_001 - 20, s.notShown());
        assertEquals("mail", s.oldest().get(0).name().orElseThrow(), "the first spawned is shown first");
        assertEquals("first-1", s.oldest().get(1).name().orElseThrow());
        for (int i = 1; i < s.oldest().size(); i++) {
            assertTrue(s.oldest().get(i - 1).age().compareTo(s.oldest().get(i).age()) >= 0, "oldest first");
        }
        assertEquals(List.of("audit", "mail"), List.copyOf(s.byName().keySet()).subList(0, 2), "most frequent first");
        assertEquals(25_000L, s.byName().get("mail"));
        assertEquals(Map.of("spawn", 100_000L), s.byKind());
        assertTrue(s.oldestAge().orElseThrow().compareTo(s.oldest().get(0).age()) >= 0);
        String text = s.toString();
        long lines = text.lines().count();
        assertTrue(lines <= 20 + 4, lines + " lines:\n" + text);
        assertTrue(text.contains("99980 more listed operation(s) not shown (limit 20): by name: audit 74993, mail 25000"),
                text);
        assertTrue(text.contains("1 unnamed operation(s) not listed"), text);
        assertTrue(text.length() < 4_000, text.length() + " chars");
        scope.requestStop();
        assertEquals(ScopeState.JOINED, Scopes.joinOrStop(scope, Duration.ofSeconds(5), Duration.ofSeconds(5)).state());
    }

    @Test
    @DisplayName("names beyond the shown ones are added up, whatever their number")
    void manyDistinctNames_addedUpAsOtherNames() {
        CountingScope scope = new CountingScope("names");
        for (int i = 0; i < 3_000; i++) {
            Scopes.spawn(Scopes.named(ParkedWork.INSTANCE, "order-" + i), scope.getToken());
        }
        OutstandingSummary s = OutstandingSummary.of(scope, 5);
        assertEquals(OutstandingSummary.MAX_NAMES_SHOWN, s.byName().size());
        assertEquals(3_000 - OutstandingSummary.MAX_NAMES_SHOWN, s.otherNames());
        assertEquals(List.of("order-0", "order-1", "order-2", "order-3", "order-4"),
                s.oldest().stream().map(w -> w.name().orElseThrow()).toList());
        assertTrue(s.toString().lines().count() <= 5 + 3, s.toString());
        scope.requestStop();
    }

    @Test
    @DisplayName("a limit of zero lists nothing and still counts everything")
    void limitZero_countsOnly() {
        CountingScope scope = new CountingScope("zero");
        Scopes.spawn(Scopes.named(ParkedWork.INSTANCE, "a"), scope.getToken());
        Scopes.spawn(Scopes.named(ParkedWork.INSTANCE, "b"), scope.getToken());
        OutstandingSummary s = OutstandingSummary.of(scope, 0);
        assertEquals(List.of(), s.oldest());
        assertEquals(2, s.listed());
        assertEquals(2, s.notShown());
        assertTrue(s.toString().contains("2 more listed operation(s) not shown (limit 0)"), s.toString());
        scope.requestStop();
    }

    @Test
    @DisplayName("finished work is neither listed nor counted")
    void finishedWork_notCounted() {
        SimpleCountingScope scope = new SimpleCountingScope("done");
        Scopes.spawn(Scopes.named(Senders.just(), "quick"), scope.getToken());
        OutstandingSummary s = OutstandingSummary.of(scope, 10);
        assertEquals(0, s.total());
        assertEquals(0, s.listed());
        assertTrue(s.oldestAge().isEmpty());
        assertEquals("", s.lines(8));
    }

    @Test
    @DisplayName("a negative limit is refused with a message that says what the limit is")
    void negativeLimit_refused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OutstandingSummary.of(new CountingScope(), -1));
        assertTrue(e.getMessage().contains("list limit must be zero or positive, was -1"), e.getMessage());
    }

    @Test
    @DisplayName("the renderer prints application frames only, at most the frame limit, and counts every frame it left out")
    void frames_applicationOnly_cutToTheLimit() {
        StackTraceElement[] site = {
            new StackTraceElement("com.acme.Orders", "place", "Orders.java", 42),
            new StackTraceElement("reactor.core.publisher.FluxFlatMap$FlatMapMain", "onNext", "FluxFlatMap.java", 1),
            new StackTraceElement("dev.senders.reactor.ReactorScopes", "spawn", "ReactorScopes.java", 1),
            new StackTraceElement("io.reactivex.rxjava3.core.Flowable", "subscribe", "Flowable.java", 1),
            new StackTraceElement("dev.senders.Senders", "syncWait", "Senders.java", 1),
            new StackTraceElement("com.acme.Web", "handle", "Web.java", 7),
            new StackTraceElement("com.acme.Main", "main", "Main.java", 3),
        };
        java.time.Instant now = java.time.Instant.now();
        OutstandingWork w = new OutstandingWork("s", "audit", "spawn", 0L, 1_000_000L, now, site);
        OutstandingSummary one = new OutstandingSummary("s", 20, 1, 1, List.of(w), Map.of("audit", 1L), 0, Map.of("spawn", 1L),
                Duration.ofMillis(1));
        assertEquals(List.of("com.acme.Orders.place(Orders.java:42)", "com.acme.Web.handle(Web.java:7)"),
                OutstandingSummary.spawnSite(w, 2, OutstandingSummary.APPLICATION_FRAMES));
        String lines = one.lines(2, OutstandingSummary.APPLICATION_FRAMES);
        assertEquals("\n  audit (spawn, running for 1 ms)"
                + "\n      at com.acme.Orders.place(Orders.java:42)"
                + "\n      at com.acme.Web.handle(Web.java:7)"
                + "\n      ... 5 more", lines); // four library frames and com.acme.Main beyond the limit
        assertTrue(one.lines(8).contains("reactor.core.publisher.FluxFlatMap"), "every frame without a filter");
        assertTrue(one.toString().contains("at com.acme.Main.main(Main.java:3)"), "toString: application frames");
        assertTrue(!one.toString().contains("FluxFlatMap"), one.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> one.lines(-1));
        assertTrue(e.getMessage().contains("frame limit must be zero or positive, was -1"), e.getMessage());
    }
}
