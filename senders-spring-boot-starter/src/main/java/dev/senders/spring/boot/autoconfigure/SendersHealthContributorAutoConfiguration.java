package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.actuate.SendersHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The scope's health contributor ({@link SendersHealthIndicator}, named {@code senders}) when
 * Spring Boot's health module is on the class path, unless
 * {@code management.health.senders.enabled=false}.
 */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(ScopeSpawner.class)
@ConditionalOnEnabledHealthIndicator("senders")
public final class SendersHealthContributorAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersHealthContributorAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = "sendersHealthIndicator")
    SendersHealthIndicator sendersHealthIndicator(ScopeSpawner spawner) {
        return new SendersHealthIndicator(spawner);
    }
}
