package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.io.ResourceLoader;

/**
 * One startup line saying what keeps the request's context from spawned work
 * ({@link ContextPropagationStartupCheck}); off with {@code senders.scope.context-propagation=false}.
 */
@AutoConfiguration(after = { SendersScopeAutoConfiguration.class, SendersReactorAutoConfiguration.class })
@ConditionalOnBean(ScopeSpawner.class)
@Conditional(OnContextPropagationCondition.class)
public final class SendersContextPropagationCheckAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersContextPropagationCheckAutoConfiguration() {
    }

    @Bean
    ContextPropagationStartupCheck sendersContextPropagationCheck(ScopeSpawner spawner,
            ObjectProvider<ReactorScopeSpawner> reactor, ResourceLoader resourceLoader) {
        ClassLoader classLoader = resourceLoader.getClassLoader();
        return new ContextPropagationStartupCheck(spawner, reactor.getIfAvailable() != null,
                classLoader != null ? classLoader : getClass().getClassLoader());
    }
}
