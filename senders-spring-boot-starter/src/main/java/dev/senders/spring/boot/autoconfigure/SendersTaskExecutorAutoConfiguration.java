package dev.senders.spring.boot.autoconfigure;

import dev.senders.scope.CountingScope;
import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.SendersScopeProperties;
import dev.senders.spring.boot.task.AsyncMethodNames;
import dev.senders.spring.boot.task.TaskExecutorTracking;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Spring's executors in the application scope: tasks submitted to Spring Boot's
 * {@code applicationTaskExecutor} (unless {@code senders.scope.track-task-executor=false}) and to
 * executor beans marked {@link dev.senders.spring.boot.ScopeTracked} are work of the scope
 * ({@link TaskExecutorTracking}); tasks of {@code @Async} methods are named {@code Class#method}
 * ({@link AsyncMethodNames}). Both are static bean post-processors, so they do not make the
 * scope's beans early; the scope's spawner is looked up at the first task.
 */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class)
@ConditionalOnClass(CountingScope.class)
public final class SendersTaskExecutorAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersTaskExecutorAutoConfiguration() {
    }

    @Bean
    static TaskExecutorTracking sendersTaskExecutorTracking(Environment environment,
            ObjectProvider<ScopeSpawner> spawners) {
        boolean trackApplicationExecutor = SendersScopeProperties.bind(environment).isTrackTaskExecutor();
        return new TaskExecutorTracking(trackApplicationExecutor, spawners);
    }

    @Bean
    static AsyncMethodNames sendersAsyncMethodNames() {
        return new AsyncMethodNames();
    }
}
