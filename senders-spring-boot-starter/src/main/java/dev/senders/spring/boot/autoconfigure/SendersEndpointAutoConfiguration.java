package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.SendersScopeProperties;
import dev.senders.spring.boot.actuate.SendersEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code senders} Actuator endpoint ({@link SendersEndpoint}) when Actuator is on the class
 * path and the endpoint is available (access allowed and exposed, e.g.
 * {@code management.endpoints.web.exposure.include=senders}).
 */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(ScopeSpawner.class)
@ConditionalOnAvailableEndpoint(SendersEndpoint.class)
public final class SendersEndpointAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    SendersEndpoint sendersEndpoint(ScopeSpawner spawner, SendersScopeProperties properties) {
        return new SendersEndpoint(spawner, properties.getShutdown().getGrace(),
                properties.getShutdown().getStopTimeout());
    }
}
