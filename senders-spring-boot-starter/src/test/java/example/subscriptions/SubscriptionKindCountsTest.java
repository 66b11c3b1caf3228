package example.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.WorkKind;
import dev.senders.spring.boot.metrics.SendersScopeMetrics;
import dev.senders.spring.boot.autoconfigure.SendersFireAndForgetAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Sinks;

/**
 * The fire-and-forget subscriptions the hooks find are a kind in the starter's counts (report,
 * endpoint, shutdown line, meters by kind), counted once: in {@code track} mode they are also in
 * the scope's {@code active}, in {@code report} mode they are not. In a package of its own: the
 * hooks never find subscriptions whose origin is in the library's packages.
 */
class SubscriptionKindCountsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersReactorAutoConfiguration.class, SendersFireAndForgetAutoConfiguration.class));

    private static double meter(MeterRegistry registry, String name) {
        return registry.get("senders.scope." + name).tag("kind", "subscription").functionCounter().count();
    }

    @Test
    void track_aFoundSubscriptionIsOneSubscriptionInTheKindAndOneInActive_untilItEnds() {
        AtomicReference<ScopeSpawner> spawnerAfterClose = new AtomicReference<>();
        runner.withPropertyValues("senders.scope.fire-and-forget=track").run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            MeterRegistry registry = new SimpleMeterRegistry();
            new SendersScopeMetrics(spawner).bindTo(registry);
            assertThat(spawner.report().subscriptions()).as("the hooks are installed: the kind is in use")
                    .isEqualTo(new ScopeReport.Counts(0, 0, 0, 0, 0));

            Sinks.Empty<Void> order = Sinks.empty();
            order.asMono().subscribe(v -> { });          // a plain fire-and-forget subscribe

            ScopeReport running = spawner.report();
            assertThat(running.subscriptions()).isEqualTo(new ScopeReport.Counts(1, 0, 0, 0, 0));
            assertThat(running.counts(WorkKind.SUBSCRIPTION).running()).isEqualTo(1);
            assertThat(running.active()).as("tracked: associated with the scope, once").isEqualTo(1);
            assertThat(running.spawned().started()).as("in no other kind").isZero();
            assertThat(running.toString()).contains("1 active").contains("subscriptions: 1 started, 0 completed");
            assertThat(meter(registry, "spawned")).isEqualTo(1.0);

            order.tryEmitEmpty();

            ScopeReport ended = spawner.report();
            assertThat(ended.subscriptions()).isEqualTo(new ScopeReport.Counts(1, 1, 0, 0, 0));
            assertThat(ended.active()).isZero();
            assertThat(meter(registry, "completed")).isEqualTo(1.0);
            spawnerAfterClose.set(spawner);
        });
        assertThat(spawnerAfterClose.get().counters().subscriptions())
                .as("the hooks are removed at shutdown; what they counted stays")
                .isEqualTo(new ScopeReport.Counts(1, 1, 0, 0, 0));
    }

    @Test
    void report_aFoundSubscriptionIsCountedInTheKindButIsNotInActive() {
        runner.withPropertyValues("senders.scope.fire-and-forget=report").run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            Sinks.Empty<Void> order = Sinks.empty();
            order.asMono().subscribe(v -> { });

            ScopeReport running = spawner.counters();
            assertThat(running.subscriptions()).isEqualTo(new ScopeReport.Counts(1, 0, 0, 0, 0));
            assertThat(running.active()).as("report mode does not associate").isZero();
            assertThat(running.toString()).contains("subscriptions: 1 started, 0 completed");

            order.tryEmitEmpty();
            assertThat(spawner.counters().subscriptions()).isEqualTo(new ScopeReport.Counts(1, 1, 0, 0, 0));
        });
    }

    @Test
    void off_theKindIsNotInUse() {
        runner.withPropertyValues("senders.scope.fire-and-forget=off").run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            Sinks.empty().asMono().subscribe(v -> { });
            assertThat(spawner.counters().subscriptions()).isNull();
            assertThat(spawner.counters().toString()).doesNotContain("subscriptions:");
        });
    }
}
