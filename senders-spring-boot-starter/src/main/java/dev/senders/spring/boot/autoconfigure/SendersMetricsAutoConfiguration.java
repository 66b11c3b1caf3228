package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.metrics.SendersScopeMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The scope's Micrometer meters ({@link SendersScopeMetrics}) when Micrometer is on the class path
 * and the application has a {@link MeterRegistry} (Spring Boot's metrics module makes one).
 */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, ScopeSpawner.class })
public final class SendersMetricsAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    SendersScopeMetrics sendersScopeMetrics(ScopeSpawner spawner) {
        return new SendersScopeMetrics(spawner);
    }
}
