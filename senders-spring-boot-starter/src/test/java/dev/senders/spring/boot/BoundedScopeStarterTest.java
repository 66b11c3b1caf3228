package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import dev.senders.spring.boot.actuate.SendersHealthIndicator;
import dev.senders.spring.boot.autoconfigure.SendersHealthContributorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersMetricsAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

/** {@code senders.scope.max-outstanding}: the limit, its refusals by reason, and a saturated scope's health. */
class BoundedScopeStarterTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersReactorAutoConfiguration.class, SendersMetricsAutoConfiguration.class,
                    SendersHealthContributorAutoConfiguration.class, MetricsAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));

    @Test
    void withoutTheProperty_theScopeIsUnbounded_andHealthShowsNoLimit() {
        runner.run(context -> {
            assertThat(context.getBean(CountingScope.class).maxOutstanding()).isEqualTo(Long.MAX_VALUE);
            assertThat(context.getBean(ScopeSpawner.class).counters().maxOutstanding()).isNull();
            assertThat(context.getBean(SendersHealthIndicator.class).health().getDetails())
                    .doesNotContainKeys("maxOutstanding", "saturated");
        });
    }

    @Test
    void atTheLimit_spawnsAreRefusedAsFull_countedByReason_andHealthStaysUpWithSaturatedDetails() {
        runner.withPropertyValues("senders.scope.name=jobs", "senders.scope.max-outstanding=2",
                "senders.scope.shutdown.grace=50ms").run(context -> {
            CountingScope scope = context.getBean(CountingScope.class);
            ReactorScopeSpawner spawner = context.getBean(ReactorScopeSpawner.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            SendersHealthIndicator health = context.getBean(SendersHealthIndicator.class);
            assertThat(scope.maxOutstanding()).isEqualTo(2);
            assertThat(scope.name()).isEqualTo("jobs");

            assertThat(spawner.spawn(Mono.never())).isTrue();
            Health below = health.health();
            assertThat(below.getStatus()).isEqualTo(Status.UP);
            assertThat(below.getDetails()).containsEntry("maxOutstanding", 2L).containsEntry("saturated", false);

            assertThat(spawner.spawn(Mono.never())).isTrue();
            assertThat(spawner.spawn(Mono.never())).as("the third is refused: the scope is full").isFalse();
            Health full = health.health();
            assertThat(full.getStatus()).as("a full scope is working at capacity, not out of service")
                    .isEqualTo(Status.UP);
            assertThat(full.getDetails()).containsEntry("active", 2L).containsEntry("saturated", true)
                    .containsEntry("refusedFull", 1L);
            ScopeReport report = context.getBean(ScopeSpawner.class).report();
            assertThat(report).extracting(r -> r.spawned().started(), r -> r.spawned().refused(), ScopeReport::scopeRefused,
                    ScopeReport::scopeRefusedFull, ScopeReport::saturated).containsExactly(2L, 1L, 1L, 1L, true);
            assertThat(refused(registry, "full")).isEqualTo(1);
            assertThat(refused(registry, "closed")).isEqualTo(0);

            context.close();                              // stops the two, closes the scope
            assertThat(spawner.spawn(Mono.just(1))).isFalse();
            assertThat(refused(registry, "closed")).isEqualTo(1);
            assertThat(scope.refusedCount(RefusalReason.CLOSED)).isEqualTo(1);
        });
    }

    @Test
    void aLimitBelowOneFailsStartupNamingTheProperty() {
        runner.withPropertyValues("senders.scope.max-outstanding=0").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("senders.scope.max-outstanding must be at least 1, was 0"));
    }

    private static double refused(MeterRegistry registry, String reason) {
        return registry.get("senders.scope.refused").tags("scope", "jobs", "reason", reason).functionCounter().count();
    }
}
