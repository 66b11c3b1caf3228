package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.spring.boot.autoconfigure.SendersObservationAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

/**
 * With an {@code ObservationRegistry} bean, each piece of named spawned work is an observation
 * {@code senders.work}, child of the spawning request's, tagged with the scope, the work's name and
 * its outcome; nothing is observed without a registry or for unnamed work.
 */
class SpawnedWorkObservationTest {

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersObservationAutoConfiguration.class,
                    SendersScopeAutoConfiguration.class, SendersReactorAutoConfiguration.class))
            .withBean(ObservationRegistry.class, () -> registry)
            .withPropertyValues("senders.scope.name=orders");

    @Test
    void aNamedSpawnIsOneObservation_withItsTags_andTheRequestsObservationAsParent() {
        AtomicReference<Observation> currentInWork = new AtomicReference<>();
        Observation request = Observation.start("http.server.requests", registry);
        runner.run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            request.scoped(() -> {                  // the request's observation is current while it spawns
                assertThat(spawner.spawn(TestWork.later(20, () -> { }), "audit-write")).isTrue();
                assertThat(context.getBean(ReactorScopeSpawner.class).spawn(
                        Mono.fromRunnable(() -> currentInWork.set(registry.getCurrentObservation())),
                        "reactor-audit")).isTrue();
            });
            context.close();                        // joins: both observations have ended
        });
        request.stop();
        TestObservationRegistryAssert.assertThat(registry)
                .hasNumberOfObservationsWithNameEqualTo("senders.work", 2)
                .hasAnObservation(o -> o.hasNameEqualTo("senders.work").hasContextualNameEqualTo("audit-write")
                        .hasLowCardinalityKeyValue("scope", "orders")
                        .hasLowCardinalityKeyValue("work", "audit-write")
                        .hasLowCardinalityKeyValue("outcome", "value")
                        .hasParentObservationEqualTo(request)
                        .doesNotHaveError());
        assertThat(currentInWork.get()).as("the work's own observation is current while it starts")
                .isNotNull().isNotSameAs(request);
        assertThat(currentInWork.get().getContextView().getLowCardinalityKeyValue("work").getValue())
                .isEqualTo("reactor-audit");
        assertThat(currentInWork.get().getContextView().getParentObservation()).isSameAs(request);
    }

    @Test
    void anErrorIsRecorded_andTaggedError() {
        runner.run(context -> {
            context.getBean(ScopeSpawner.class).spawn(TestWork.failingLater(10, "audit store down"), "audit-write");
            context.close();
        });
        TestObservationRegistryAssert.assertThat(registry).hasSingleObservationThat()
                .hasNameEqualTo("senders.work")
                .hasLowCardinalityKeyValue("outcome", "error")
                .hasError()
                .assertThatError().hasMessage("audit store down");
    }

    @Test
    void workStoppedByTheScopeIsTaggedStopped() {
        runner.withPropertyValues("senders.scope.shutdown.grace=50ms").run(context -> {
            context.getBean(ReactorScopeSpawner.class).spawn(Mono.never(), "stuck");
            context.close();                        // the grace runs out: the scope stops the work
        });
        TestObservationRegistryAssert.assertThat(registry).hasSingleObservationThat()
                .hasLowCardinalityKeyValue("work", "stuck")
                .hasLowCardinalityKeyValue("outcome", "stopped")
                .doesNotHaveError();
    }

    @Test
    void unnamedWork_aRefusedSpawn_andWorkWithoutARegistry_areNotObserved() {
        runner.run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.spawn(TestWork.later(0, () -> { }))).isTrue();
            spawner.scope().close();
            assertThat(spawner.spawn(TestWork.later(0, () -> { }), "too-late")).isFalse();
        });
        TestObservationRegistryAssert.assertThat(registry).doesNotHaveAnyObservation();

        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SendersObservationAutoConfiguration.class,
                        SendersScopeAutoConfiguration.class))
                .run(context -> assertThat(context.getBean(ScopeSpawner.class).decorator())
                        .as("no registry: the observation bean is NONE, which the spawner leaves out")
                        .extracting(Object::toString).asString().doesNotContain("ObservationSpawnDecorator"));
    }

    @Test
    void withoutMicrometersObservationApi_theRestStillWorks() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SendersObservationAutoConfiguration.class,
                        SendersScopeAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(ObservationSpawnDecorator.class);
                    assertThat(context.getBean(ScopeSpawner.class).spawn(TestWork.later(0, () -> { }), "job")).isTrue();
                });
    }
}
