package dev.senders.spring.boot.autoconfigure;

import dev.senders.scope.CountingScope;
import dev.senders.scope.SpawnDecorator;
import dev.senders.spring.boot.ContextSnapshotSpawnDecorator;
import dev.senders.spring.boot.MdcSpawnDecorator;
import dev.senders.spring.boot.ScopeShutdown;
import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.SendersScopeProperties;
import dev.senders.spring.boot.SpawnErrorLogger;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The application-wide scope: a {@link CountingScope} bean whose errors are logged
 * (by the {@link SpawnErrorLogger} bean, which tests listen to), the {@link ScopeSpawner} over it, and its {@link ScopeShutdown}.
 * Each backs off when the application defines a bean of its type; an application's own
 * {@code CountingScope} is then the one spawned into and shut down (its errors go to its own
 * handler).
 *
 * <p>Spawned work is decorated by every {@link SpawnDecorator} bean, composed in their order
 * ({@code Ordered}, {@code @Order}): with Micrometer's context-propagation library on the class
 * path and {@code senders.scope.context-propagation} not {@code false}, the spawning thread's MDC
 * ({@link MdcSpawnDecorator}) and registered context ({@link ContextSnapshotSpawnDecorator});
 * with an {@code ObservationRegistry}, an observation of named work
 * ({@link dev.senders.spring.boot.ObservationSpawnDecorator}); and an application's own. A bean of
 * one of the starter's decorator classes replaces the starter's.
 */
@AutoConfiguration
@ConditionalOnClass(CountingScope.class)
@EnableConfigurationProperties(SendersScopeProperties.class)
public final class SendersScopeAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersScopeAutoConfiguration() {
    }

    /** Spring Boot's default for {@code spring.lifecycle.timeout-per-shutdown-phase}. */
    private static final Duration DEFAULT_PHASE_TIMEOUT = Duration.ofSeconds(30);

    @Bean
    @ConditionalOnMissingBean
    SpawnErrorLogger sendersSpawnErrorLogger(SendersScopeProperties properties) {
        return new SpawnErrorLogger(properties.getName());
    }

    @Bean
    @ConditionalOnMissingBean
    CountingScope sendersScope(SendersScopeProperties properties, SpawnErrorLogger errorLogger) {
        return CountingScope.builder().name(properties.getName()).errorHandler(errorLogger)
                .maxOutstanding(properties.getMaxOutstanding() == null ? Long.MAX_VALUE : properties.getMaxOutstanding())
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    ScopeSpawner scopeSpawner(CountingScope scope, SendersScopeProperties properties,
            ObjectProvider<SpawnDecorator> decorators) {
        return new ScopeSpawner(scope, properties.getName(), SpawnDecorator.compose(decorators.orderedStream().toList()),
                properties.getListLimit());
    }

    @Bean
    @ConditionalOnMissingBean
    ScopeShutdown scopeShutdown(ScopeSpawner spawner, SendersScopeProperties properties,
            ObjectProvider<ScopeShutdown.Listener> listeners, Environment environment) {
        Duration phaseTimeout = Binder.get(environment)
                .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .orElse(DEFAULT_PHASE_TIMEOUT);
        return new ScopeShutdown(spawner, properties.getShutdown().getGrace(), properties.getShutdown().getStopTimeout(),
                phaseTimeout, listeners.orderedStream().toList());
    }

    /** Carries the spawning thread's MDC and registered context with Micrometer's context-propagation library. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.context.ContextSnapshot")
    @Conditional(OnContextPropagationCondition.class)
    static class ContextPropagationConfiguration {

        @Bean
        @ConditionalOnMissingBean
        MdcSpawnDecorator sendersMdcSpawnDecorator() {
            return new MdcSpawnDecorator();
        }

        @Bean
        @ConditionalOnMissingBean
        ContextSnapshotSpawnDecorator sendersContextSnapshotSpawnDecorator() {
            return new ContextSnapshotSpawnDecorator();
        }
    }
}
