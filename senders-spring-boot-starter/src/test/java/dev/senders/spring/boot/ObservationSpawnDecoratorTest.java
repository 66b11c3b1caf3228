package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

/**
 * {@link ObservationSpawnDecorator} costs what Micrometer needs: key values from a convention over
 * a {@link SpawnedWorkObservationContext} (shared per name pair), the parent Micrometer sets, and
 * the observation current only where the work runs (connect, start, an error's completion).
 */
@SuppressWarnings("try") // the installs are closed by try-with-resources, unread
class ObservationSpawnDecoratorTest {

    private final TestObservationRegistry registry = TestObservationRegistry.create();
    private final ObservationSpawnDecorator decorator = new ObservationSpawnDecorator(registry);

    @Test
    void theWorksObservationIsCurrentAroundItsConnectAndStart_childOfTheSpawningThreadsObservation() {
        Observation request = Observation.start("http.server.requests", registry);
        SpawnDecorator.Decoration observed;
        try (Observation.Scope scope = request.openScope()) {
            observed = decorator.decorate("app", "audit");
        }
        try (SpawnDecorator.Installed installed = observed.install()) {
            Observation work = registry.getCurrentObservation();
            assertThat(work.getContext()).isInstanceOf(SpawnedWorkObservationContext.class);
            assertThat(work.getContextView().getParentObservation()).isSameAs(request);
        }
        assertThat(registry.getCurrentObservation()).isNull();
        observed.end(SpawnDecorator.Outcome.VALUE, null);
        request.stop();
    }

    @Test
    void aCompletionWithAValueOrAStop_runsWithoutTheObservation() {
        for (SpawnDecorator.Outcome outcome : new SpawnDecorator.Outcome[] {
                SpawnDecorator.Outcome.VALUE, SpawnDecorator.Outcome.STOPPED}) {
            SpawnDecorator.Decoration observed = decorator.decorate("app", "audit");
            observed.end(outcome, null);
            assertThat(observed.install()).as(outcome.tag()).isSameAs(SpawnDecorator.Installed.NOTHING);
        }
    }

    @Test
    void anErrorsCompletion_runsWithTheObservationCurrent_soItsLogLineCarriesTheTrace() {
        SpawnDecorator.Decoration observed = decorator.decorate("app", "audit");
        observed.end(SpawnDecorator.Outcome.ERROR, new IllegalStateException("boom"));
        try (SpawnDecorator.Installed installed = observed.install()) {
            assertThat(registry.getCurrentObservation()).isNotNull();
            assertThat(registry.getCurrentObservation().getContextView().getError()).hasMessage("boom");
        }
    }

    @Test
    void theKeyValuesComeFromTheDefaultConvention_builtOncePerNamePair() {
        SpawnedWorkKeyValues.Cache cache = new SpawnedWorkKeyValues.Cache();
        assertThat(cache.of("app", "audit")).isSameAs(cache.of("app", "audit"));
        decorator.decorate("app", "audit").end(SpawnDecorator.Outcome.VALUE, null);
        TestObservationRegistryAssert.assertThat(registry).hasSingleObservationThat()
                .hasNameEqualTo("senders.work").hasContextualNameEqualTo("audit")
                .hasLowCardinalityKeyValue("scope", "app").hasLowCardinalityKeyValue("work", "audit")
                .hasLowCardinalityKeyValue("outcome", "value");
    }

    @Test
    void aCustomConvention_namesAndTagsTheObservation() {
        ObservationSpawnDecorator custom = new ObservationSpawnDecorator(registry, new DefaultSpawnedWorkObservationConvention() {
            @Override
            public String getName() {
                return "jobs";
            }

            @Override
            public KeyValues getLowCardinalityKeyValues(SpawnedWorkObservationContext context) {
                return KeyValues.of("job", context.getWorkName(),
                        "result", context.getOutcome() == null ? "running" : context.getOutcome().tag());
            }
        });
        custom.decorate("app", "audit").end(SpawnDecorator.Outcome.STOPPED, null);
        TestObservationRegistryAssert.assertThat(registry).hasSingleObservationThat()
                .hasNameEqualTo("jobs").hasLowCardinalityKeyValue("job", "audit")
                .hasLowCardinalityKeyValue("result", "stopped")
                .doesNotHaveLowCardinalityKeyValueWithKey("work");
    }

    @Test
    void aKeyValueAddedByAFilter_isReportedBesideTheBuiltInOnes_andWinsOnTheSameKey() {
        registry.observationConfig().observationFilter(context -> context
                .addLowCardinalityKeyValue(KeyValue.of("region", "eu"))
                .addLowCardinalityKeyValue(KeyValue.of("scope", "renamed")));
        decorator.decorate("app", "audit").end(SpawnDecorator.Outcome.ERROR, new IllegalStateException("boom"));
        TestObservationRegistryAssert.assertThat(registry).hasSingleObservationThat()
                .hasLowCardinalityKeyValue("region", "eu").hasLowCardinalityKeyValue("work", "audit")
                .hasLowCardinalityKeyValue("outcome", "error").hasLowCardinalityKeyValue("scope", "renamed");
    }

    @Test
    void anObservationSwitchedOffByAPredicate_decoratesNothing() {
        registry.observationConfig().observationPredicate((name, context) -> !name.equals("senders.work"));
        assertThat(decorator.decorate("app", "audit")).isSameAs(SpawnDecorator.Decoration.NONE);
    }
}
