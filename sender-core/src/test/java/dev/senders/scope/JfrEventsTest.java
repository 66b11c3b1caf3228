package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JFR: a flight recording shows spawns, completions with their outcome, joins and passed deadlines")
class JfrEventsTest {

    private static List<RecordedEvent> of(List<RecordedEvent> events, String name, String scope) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(name) && scope.equals(e.getString("scope")))
                .collect(Collectors.toList());
    }

    @Test
    @DisplayName("recorded events are read back: Spawn, WorkEnd with outcome, JoinStart, JoinDeadline, JoinEnd")
    void eventsRecordedAndReadBack() throws Exception {
        Path file = Files.createTempFile("senders-jfr", ".jfr");
        ManualSender<Void> stuck = new ManualSender<>(false);
        try (Recording rec = new Recording()) {
            for (String e : List.of("dev.senders.Spawn", "dev.senders.WorkEnd", "dev.senders.JoinStart",
                    "dev.senders.JoinEnd", "dev.senders.JoinDeadline")) {
                rec.enable(e).withThreshold(Duration.ZERO);
            }
            rec.start();
            CountingScope scope = new CountingScope("jfr-orders", error -> { });
            Scopes.spawn(Scopes.named(Senders.just(), "ok"), scope.getToken());
            Scopes.spawn(Scopes.named(Senders.justError(new IllegalStateException("boom")), "bad"), scope.getToken());
            Scopes.spawn(Senders.just(), scope.getToken()); // unnamed: recorded too while work events are on
            Scopes.spawn(Scopes.named(stuck, "stuck"), scope.getToken());
            ShutdownReport report = Scopes.joinOrStop(scope, Duration.ofMillis(20), Duration.ofMillis(20));
            assertFalse(report.joined());
            stuck.complete(null);
            rec.stop();
            rec.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Files.deleteIfExists(file);

        List<RecordedEvent> spawns = of(events, "dev.senders.Spawn", "jfr-orders");
        assertEquals(4, spawns.size(), events::toString);
        assertEquals("spawn", spawns.get(0).getString("kind"));
        assertTrue(spawns.get(0).getStackTrace() != null, "a spawn event carries its stack trace");

        List<RecordedEvent> ends = of(events, "dev.senders.WorkEnd", "jfr-orders");
        assertEquals(4, ends.size());
        RecordedEvent bad = ends.stream().filter(e -> "bad".equals(e.getString("work"))).findFirst().orElseThrow();
        assertEquals("error", bad.getString("outcome"));
        assertTrue(bad.getString("error").contains("boom"));
        RecordedEvent stuckEnd = ends.stream().filter(e -> "stuck".equals(e.getString("work"))).findFirst().orElseThrow();
        assertEquals("value", stuckEnd.getString("outcome"));
        assertTrue(stuckEnd.getDuration().compareTo(Duration.ofMillis(40)) >= 0, "the duration is the work's run");

        assertFalse(of(events, "dev.senders.JoinStart", "jfr-orders").isEmpty());
        List<RecordedEvent> deadlines = of(events, "dev.senders.JoinDeadline", "jfr-orders");
        assertEquals(List.of("grace", "stop"), deadlines.stream().map(e -> e.getString("phase")).collect(Collectors.toList()));
        assertEquals(1L, deadlines.get(1).getLong("remaining"));
        assertTrue(deadlines.get(1).getString("stillRunning").startsWith("stuck (spawn, running for "),
                deadlines.get(1).getString("stillRunning"));
        assertFalse(of(events, "dev.senders.JoinEnd", "jfr-orders").isEmpty(), "the join ended once the stuck work did");
    }

    @Test
    @DisplayName("without a recording that enables work events, unnamed work is not tracked")
    void noRecording_unnamedWorkNotTracked() {
        CountingScope scope = new CountingScope();
        ManualSender<Void> w = new ManualSender<>();
        Scopes.spawn(w, scope.getToken());
        assertEquals(List.of(), scope.outstanding());
        w.complete(null);
    }
}
