package dev.senders.spring.boot.autoconfigure;

import dev.senders.rxjava3.RxSenders;
import dev.senders.spring.boot.RxScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import io.reactivex.rxjava3.core.Completable;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** An {@link RxScopeSpawner} when RxJava 3 and the senders RxJava adapter are on the class path. */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class)
@ConditionalOnClass({ Completable.class, RxSenders.class })
@ConditionalOnBean(ScopeSpawner.class)
public final class SendersRxJavaAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersRxJavaAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    RxScopeSpawner rxScopeSpawner(ScopeSpawner spawner) {
        return new RxScopeSpawner(spawner);
    }
}
