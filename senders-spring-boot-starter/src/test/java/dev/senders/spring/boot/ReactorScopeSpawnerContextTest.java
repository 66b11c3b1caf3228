package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.CountingScope;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
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
    private static final ThreadLocal<String> USER = new ThreadLocal<>();

    private final CountingScope scope = new CountingScope("app");
    private final ReactorScopeSpawner spawner =
            new ReactorScopeSpawner(new ScopeSpawner(scope, "app", new MdcSpawnDecorator()));

    ReactorScopeSpawnerContextTest() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new ThreadLocalAccessor<String>() {
            @Override
            public Object key() {
                return KEY;
            }

            @Override
            public String getValue() {
                return USER.get();
            }

            @Override
            public void setValue(String value) {
                USER.set(value);
            }

            @Override
            public void setValue() {
                USER.remove();
            }
        });
    }

    @AfterEach
    void unregister() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(KEY);
        USER.remove();
    }

    @Test
    void theSpawningThreadsRegisteredValues_areInTheWorksReactorContext() {
        AtomicReference<Object> seen = new AtomicReference<>();
        USER.set("ann");
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
