package dev.senders.spring.boot.autoconfigure;

import dev.senders.reactor.ReactorSenders;
import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;

/** A {@link ReactorScopeSpawner} when Reactor and the senders Reactor adapter are on the class path. */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class)
@ConditionalOnClass({ Mono.class, ReactorSenders.class })
@ConditionalOnBean(ScopeSpawner.class)
public final class SendersReactorAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersReactorAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    ReactorScopeSpawner reactorScopeSpawner(ScopeSpawner spawner) {
        return new ReactorScopeSpawner(spawner);
    }
}
