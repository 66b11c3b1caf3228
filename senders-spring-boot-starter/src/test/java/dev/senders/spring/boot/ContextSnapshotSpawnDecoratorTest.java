package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ContextSnapshotSpawnDecorator} carries the registered accessors' values at the cost of
 * what it carries: nothing captured when no accessor has a value (one shared decoration that
 * touches only the accessors with a value on the installing thread), nothing written over equal
 * values, no leak between requests, and the work's own observation is not replaced by the
 * request's.
 */
@SuppressWarnings("try") // the installs are closed by try-with-resources, unread
class ContextSnapshotSpawnDecoratorTest {

    private final Recording user = new Recording("user");
    private final Recording tenant = new Recording("tenant");
    private final ContextRegistry registry = new ContextRegistry()
            .registerThreadLocalAccessor(user).registerThreadLocalAccessor(tenant);
    private final ContextSnapshotSpawnDecorator decorator = new ContextSnapshotSpawnDecorator(registry);

    @AfterEach
    void clear() {
        user.local.remove();
        tenant.local.remove();
    }

    @Test
    void noAccessorWithAValue_isCapturedAsNothing_oneDecorationSharedByEverySpawn() {
        assertThat(decorator.decorate("app", null)).isSameAs(decorator.decorate("app", "audit"));
    }

    @Test
    void theSharedEmptyDecoration_writesNoAccessorWithoutAValue() {
        SpawnDecorator.Decoration empty = decorator.decorate("app", null);
        assertThat(empty.install()).isSameAs(SpawnDecorator.Installed.NOTHING);
        assertThat(user.writes).isEmpty();
        assertThat(tenant.writes).isEmpty();
    }

    @Test
    void theSharedEmptyDecoration_clearsOnlyAccessorsWithAValue_andRestoresThem() {
        SpawnDecorator.Decoration empty = decorator.decorate("app", null);
        user.local.set("other-request");
        try (SpawnDecorator.Installed installed = empty.install()) {
            assertThat(user.local.get()).as("no leak of another request's value").isNull();
        }
        assertThat(user.local.get()).isEqualTo("other-request");
        assertThat(user.writes).containsExactly("clear", "restore other-request");
        assertThat(tenant.writes).isEmpty();
    }

    @Test
    void installingOnTheSpawningThread_writesNothing() {
        user.local.set("ann");
        SpawnDecorator.Decoration carried = decorator.decorate("app", null);
        assertThat(carried.install()).isSameAs(SpawnDecorator.Installed.NOTHING);
        assertThat(user.writes).isEmpty();
        assertThat(tenant.writes).isEmpty();
    }

    @Test
    void onAnotherThread_theCapturedValuesAreSet_theOthersCleared_andThatThreadsOwnPutBack() throws Exception {
        user.local.set("ann");
        SpawnDecorator.Decoration carried = decorator.decorate("app", null);
        CompletableFuture.runAsync(() -> {
            tenant.local.set("stale");
            try (SpawnDecorator.Installed installed = carried.install()) {
                assertThat(user.local.get()).isEqualTo("ann");
                assertThat(tenant.local.get()).as("no leak of another request's value").isNull();
            }
            assertThat(user.local.get()).isNull();
            assertThat(tenant.local.get()).isEqualTo("stale");
            tenant.local.remove();
        }).get();
    }

    @Test
    void theWorksOwnObservation_isNotReplacedByTheRequests_whenItsCompletionIsInstalledInsideIt() {
        ObservationRegistry observations = TestObservationRegistry.create();
        ObservationThreadLocalAccessor accessor = new ObservationThreadLocalAccessor(observations);
        ContextSnapshotSpawnDecorator context = new ContextSnapshotSpawnDecorator(
                new ContextRegistry().registerThreadLocalAccessor(accessor));
        ObservationSpawnDecorator observation = new ObservationSpawnDecorator(observations);
        Observation request = Observation.start("http.server.requests", observations);
        try (Observation.Scope scope = request.openScope()) {
            SpawnDecorator.Decoration carried = context.decorate("app", "audit");
            SpawnDecorator.Decoration observed = observation.decorate("app", "audit");
            try (SpawnDecorator.Installed c = carried.install(); SpawnDecorator.Installed o = observed.install()) {
                Observation work = observations.getCurrentObservation();
                assertThat(work).isNotSameAs(request);
                assertThat(carried.install()).as("the work's own observation stays current")
                        .isSameAs(SpawnDecorator.Installed.NOTHING);
                assertThat(observations.getCurrentObservation()).isSameAs(work);
            }
            assertThat(observations.getCurrentObservation()).isSameAs(request);
            observed.end(SpawnDecorator.Outcome.VALUE, null);
        }
        request.stop();
    }

    @Test
    void overAFactory_eachSpawnTakesASnapshot_andTheFactorysRulesApply() throws Exception {
        ContextSnapshotSpawnDecorator overFactory = new ContextSnapshotSpawnDecorator(
                io.micrometer.context.ContextSnapshotFactory.builder().contextRegistry(registry).clearMissing(true).build());
        user.local.set("ann");
        SpawnDecorator.Decoration carried = overFactory.decorate("app", null);
        CompletableFuture.runAsync(() -> {
            tenant.local.set("stale");
            try (SpawnDecorator.Installed installed = carried.install()) {
                assertThat(user.local.get()).isEqualTo("ann");
                assertThat(tenant.local.get()).isNull();
            }
            assertThat(tenant.local.get()).isEqualTo("stale");
            tenant.local.remove();
        }).get();
    }

    /** A thread-local accessor that records its writes. */
    static final class Recording implements ThreadLocalAccessor<String> {
        final ThreadLocal<String> local = new ThreadLocal<>();
        final List<String> writes = new ArrayList<>();
        private final String key;

        Recording(String key) {
            this.key = key;
        }

        @Override
        public Object key() {
            return key;
        }

        @Override
        public String getValue() {
            return local.get();
        }

        @Override
        public void setValue(String value) {
            writes.add("set " + value);
            local.set(value);
        }

        @Override
        public void setValue() {
            writes.add("clear");
            local.remove();
        }

        @Override
        public void restore(String previous) {
            writes.add("restore " + previous);
            local.set(previous);
        }

        @Override
        public void restore() {
            writes.add("restore nothing");
            local.remove();
        }
    }
}
