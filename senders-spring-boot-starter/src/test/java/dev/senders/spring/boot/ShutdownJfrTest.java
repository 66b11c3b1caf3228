package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.ShutdownReport;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

/** The starter's shutdown is the core's sequence: a flight recording shows its join and its deadline. */
class ShutdownJfrTest {

    @Test
    void aShutdownPastTheGraceRecordsTheJoinAndTheGraceDeadline_namingTheWork() throws Exception {
        Path file = Files.createTempFile("senders-starter", ".jfr");
        try (Recording recording = new Recording()) {
            for (String e : List.of("dev.senders.JoinStart", "dev.senders.JoinEnd", "dev.senders.JoinDeadline")) {
                recording.enable(e).withThreshold(Duration.ZERO);
            }
            recording.start();
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                            SendersReactorAutoConfiguration.class))
                    .withPropertyValues("senders.scope.name=recorded", "senders.scope.shutdown.grace=50ms")
                    .run(context -> {
                        context.getBean(ReactorScopeSpawner.class).spawn(Mono.never(), "poller");
                        ShutdownReport report = context.getBean(ScopeShutdown.class).shutdown().toCompletableFuture()
                                .get(10, TimeUnit.SECONDS);
                        assertThat(report.outcome()).isEqualTo(ShutdownReport.Outcome.STOPPED);
                    });
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> "recorded".equals(e.getString("scope"))).toList();
        Files.deleteIfExists(file);
        assertThat(events).extracting(e -> e.getEventType().getName())
                .contains("dev.senders.JoinStart", "dev.senders.JoinDeadline", "dev.senders.JoinEnd");
        RecordedEvent deadline = events.stream().filter(e -> e.getEventType().getName().equals("dev.senders.JoinDeadline"))
                .findFirst().orElseThrow();
        assertThat(deadline.getString("phase")).isEqualTo("grace");
        assertThat(deadline.getString("stillRunning")).startsWith("poller (spawn, running for ");
    }
}
