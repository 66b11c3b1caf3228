package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.OutstandingSummary;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import dev.senders.spring.boot.webapp.WorkApp;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Mono;

/**
 * Views of the scope stay one screen at any number of outstanding operations: the endpoint, the
 * shutdown log events and the report list at most {@code senders.scope.list-limit} pieces of work,
 * then a summary.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScopeViewsTest {

    /** Work that ignores stop requests; the test completes it at the end. */
    static final class Stubborn implements Sender<Void> {
        final Queue<Receiver<? super Void>> started = new ConcurrentLinkedQueue<>();

        @Override
        public OperationState connect(Receiver<? super Void> r) {
            return () -> started.add(r);
        }

        void completeAll() {
            Receiver<? super Void> r;
            while ((r = started.poll()) != null) {
                r.setValue(null);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void withTwoThousandOutstanding_theEndpointAnswersAtMost8KB_listingTheOldestAndCountingTheRest() {
        WorkApp app = WorkApp.start("management.endpoints.web.exposure.include=senders",
                "senders.scope.shutdown.grace=50ms");
        try {
            ReactorScopeSpawner spawner = app.bean(ReactorScopeSpawner.class);
            for (int i = 0; i < 2_000; i++) {
                assertThat(spawner.spawn(Mono.never(), "order-" + (i % 5) + "-audit")).isTrue();
            }
            String body = app.get("/actuator/senders");
            assertThat(body.length()).as("bytes answered").isLessThanOrEqualTo(8 * 1024);
            List<String> names = JsonPath.read(body, "$.scope.outstanding[*].name");
            assertThat(names).hasSize(20).startsWith("order-0-audit", "order-1-audit");
            assertThat((Integer) JsonPath.read(body, "$.scope.active")).isEqualTo(2_000);
            assertThat((Integer) JsonPath.read(body, "$.scope.summary.notShown")).isEqualTo(1_980);
            assertThat((Map<String, Integer>) JsonPath.read(body, "$.scope.summary.byName"))
                    .containsEntry("order-0-audit", 400).hasSize(5);
            assertThat((Map<String, Integer>) JsonPath.read(body, "$.scope.summary.byKind"))
                    .containsExactly(Map.entry("spawn", 2_000));

            String three = app.get("/actuator/senders?limit=3");
            assertThat((List<String>) JsonPath.read(three, "$.scope.outstanding[*].name"))
                    .containsExactly("order-0-audit", "order-1-audit", "order-2-audit");
            String none = app.get("/actuator/senders?limit=0");
            assertThat((List<String>) JsonPath.read(none, "$.scope.outstanding")).isEmpty();
            assertThat((Integer) JsonPath.read(none, "$.scope.summary.listed")).isEqualTo(2_000);

            int status = app.client.get().uri("/actuator/senders?limit=-1")
                    .exchangeToMono(r -> Mono.just(r.statusCode().value())).block();
            assertThat(status).as("a negative limit is a bad request").isEqualTo(400);
            assertThat(app.bean(ScopeSpawner.class).scope().outstanding()).as("the full list, programmatically")
                    .hasSize(2_000);
        } finally {
            app.close();
        }
    }

    @Test
    void withTwentySevenHundredLeftAtTheGrace_theWarnAndErrorEventsStayAboutThirtyLines(CapturedOutput output) {
        Stubborn stubborn = new Stubborn();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class))
                .withPropertyValues("senders.scope.name=crowded", "senders.scope.shutdown.grace=100ms",
                        "senders.scope.shutdown.stop-timeout=100ms")
                .run(context -> {
                    ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
                    for (int i = 0; i < 2_700; i++) {
                        assertThat(spawner.spawn(stubborn, "order-" + (i % 3))).isTrue();
                    }
                    ScopeShutdown shutdown = context.getBean(ScopeShutdown.class);
                    assertThat(shutdown.shutdown().toCompletableFuture().get(10, TimeUnit.SECONDS).remaining())
                            .isEqualTo(2_700);
                });
        stubborn.completeAll();
        String out = output.getOut();
        String warn = event(out, "Scope 'crowded': the 100 ms grace is over");
        assertThat(warn.lines().count()).as("the WARN event:\n" + warn).isLessThanOrEqualTo(30);
        assertThat(warn).contains("with 2700 operation(s) still associated: requesting stop")
                .contains("\n  order-0 (spawn, running for ")
                .contains("\n  2680 more listed operation(s) not shown (limit 20): by name: order-0 900, order-1 900,"
                        + " order-2 900; by kind: spawn 2700; oldest running for ");
        String error = event(out, "Gave up: scope 'crowded' did not join: 2700 operation(s) still associated");
        assertThat(error.lines().count()).as("the ERROR event:\n" + error).isLessThanOrEqualTo(30);
        assertThat(error).contains("2680 more listed operation(s) not shown");
    }

    @Test
    void aSmallerListLimitShortensTheReport() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class))
                .withPropertyValues("senders.scope.list-limit=2", "senders.scope.shutdown.grace=10ms")
                .run(context -> {
                    ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
                    for (int i = 0; i < 5; i++) {
                        spawner.spawn(dev.senders.reactor.ReactorSenders.fromPublisherIgnoreElements(Mono.never()),
                                "job-" + i);
                    }
                    ScopeReport report = spawner.report();
                    assertThat(report.outstanding()).extracting(ScopeReport.Work::name).containsExactly("job-0", "job-1");
                    assertThat(report.summary().notShown()).isEqualTo(3);
                    assertThat(spawner.report(4).outstanding()).hasSize(4);
                    assertThat(report.summary().listLimit()).isEqualTo(2);
                });
    }

    @Test
    void theListLimitDefaultsToTheCoresDefault() {
        assertThat(new SendersScopeProperties().getListLimit()).isEqualTo(OutstandingSummary.DEFAULT_LIMIT);
    }

    @Test
    void aNegativeListLimitFailsStartupNamingTheProperty() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class))
                .withPropertyValues("senders.scope.list-limit=-1")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("senders.scope.list-limit must be zero or positive, was -1"));
    }

    /** The log event whose message contains {@code start}: its first line and the indented lines after it. */
    private static String event(String out, String start) {
        int at = out.indexOf(start);
        assertThat(at).as("logged: " + start).isGreaterThanOrEqualTo(0);
        int lineStart = out.lastIndexOf('\n', at) + 1;
        Matcher m = Pattern.compile("\\R(?! )").matcher(out);
        int end = m.find(at) ? m.start() : out.length();
        return out.substring(lineStart, end);
    }
}
