package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.CountingScope;
import io.micrometer.context.ContextRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A decorating {@link ReactorScopeSpawner} writes, at subscription, the values of the accessors
 * registered with the global {@code ContextRegistry} into the work's Reactor {@code Context}, and
 * nothing for an accessor without a value.
 */
class ReactorScopeSpawnerContextTest {

    private static final String KEY = "senders.test.user";

    private final ContextSnapshotSpawnDecoratorTest.Recording user = new ContextSnapshotSpawnDecoratorTest.Recording(KEY);
    private final CountingScope scope = new CountingScope("app");
    private final ReactorScopeSpawner spawner =
            new ReactorScopeSpawner(new ScopeSpawner(scope, "app", new MdcSpawnDecorator()));

    ReactorScopeSpawnerContextTest() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(user);
    }

    @AfterEach
    void unregister() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(KEY);
        user.local.remove();
    }

    @Test
    void theSpawningThreadsRegisteredValues_areInTheWorksReactorContext() {
        AtomicReference<Object> seen = new AtomicReference<>();
        user.local.set("ann");
        assertThat(spawner.spawn(Mono.deferContextual(ctx -> {
            seen.set(ctx.getOrDefault(KEY, "none"));
            return Mono.empty();
        }))).isTrue();
        assertThat(seen.get()).isEqualTo("ann");
    }

    @Test
    void anAccessorWithoutAValue_writesNothingIntoTheContext() {
        AtomicReference<Object> seen = new AtomicReference<>();
        assertThat(spawner.spawn(Mono.deferContextual(ctx -> {
            seen.set(ctx.getOrDefault(KEY, "none"));
            return Mono.empty();
        }))).isTrue();
        assertThat(seen.get()).isEqualTo("none");
    }
}
