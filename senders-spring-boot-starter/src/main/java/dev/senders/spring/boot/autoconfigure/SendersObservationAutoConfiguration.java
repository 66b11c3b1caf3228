package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.MicrometerWorkObservation;
import dev.senders.spring.boot.WorkObservation;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Observes named spawned work ({@link MicrometerWorkObservation}) when Micrometer's observation API
 * is on the class path and the application has an {@link ObservationRegistry} bean (Spring Boot
 * defines one with Actuator); {@link WorkObservation#NONE} without a registry. An application's own
 * {@link WorkObservation} bean replaces it.
 */
@AutoConfiguration
@ConditionalOnClass(ObservationRegistry.class)
public final class SendersObservationAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersObservationAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    WorkObservation sendersWorkObservation(ObjectProvider<ObservationRegistry> registry) {
        ObservationRegistry r = registry.getIfUnique();
        return r == null ? WorkObservation.NONE : new MicrometerWorkObservation(r);
    }
}
