package dev.senders.spring.boot.autoconfigure;

import dev.senders.scope.SpawnDecorator;
import dev.senders.spring.boot.ObservationSpawnDecorator;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Observes named spawned work ({@link ObservationSpawnDecorator}, a {@link SpawnDecorator} bean)
 * when Micrometer's observation API is on the class path and the application has one
 * {@link ObservationRegistry} bean (Spring Boot defines one with Actuator); without a registry the
 * bean is {@link SpawnDecorator#NONE}, which the spawner leaves out. An application's own
 * {@code ObservationSpawnDecorator} bean replaces it; its other {@code SpawnDecorator} beans are
 * applied besides it, in their order.
 */
@AutoConfiguration
@ConditionalOnClass(ObservationRegistry.class)
public final class SendersObservationAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersObservationAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(ObservationSpawnDecorator.class)
    SpawnDecorator sendersObservationSpawnDecorator(ObjectProvider<ObservationRegistry> registry) {
        ObservationRegistry r = registry.getIfUnique();
        return r == null ? SpawnDecorator.NONE : new ObservationSpawnDecorator(r);
    }
}
