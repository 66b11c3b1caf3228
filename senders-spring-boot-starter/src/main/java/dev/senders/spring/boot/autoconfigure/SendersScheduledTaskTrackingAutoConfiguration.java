package dev.senders.spring.boot.autoconfigure;

import dev.senders.reactor.ScheduledTaskTracking;
import dev.senders.rxjava3.RxScheduledTaskTracking;
import dev.senders.spring.boot.ScheduledTaskHooks;
import io.reactivex.rxjava3.disposables.Disposable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Conditional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spawned Reactor and RxJava work stays work of the application scope while the tasks it scheduled
 * on their schedulers run (unless {@code senders.scope.track-scheduled-tasks=false}): Reactor's
 * {@code ScheduledTaskTracking} hook and RxJava's {@code RxScheduledTaskTracking} handler are
 * installed while the context runs, each when its library and adapter are on the class path. A
 * bean named {@code sendersReactorScheduledTaskHooks} or {@code sendersRxJavaScheduledTaskHooks}
 * of the user's replaces the starter's. With RxJava's plugins locked down the RxJava handler cannot
 * be installed: that is logged as a warning and the context starts without it.
 */
@AutoConfiguration(before = SendersScopeAutoConfiguration.class)
@Conditional(OnTrackScheduledTasksCondition.class)
public final class SendersScheduledTaskTrackingAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SendersScheduledTaskTrackingAutoConfiguration.class);

    /** Created by Spring when the conditions match. */
    SendersScheduledTaskTrackingAutoConfiguration() {
    }

    /** Reactor's schedule hook. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"reactor.core.scheduler.Schedulers", "dev.senders.reactor.ScheduledTaskTracking"})
    static class ReactorHook {

        @Bean
        @ConditionalOnMissingBean(name = "sendersReactorScheduledTaskHooks")
        ScheduledTaskHooks sendersReactorScheduledTaskHooks() {
            return new ScheduledTaskHooks("Reactor", ScheduledTaskTracking.install()::dispose);
        }
    }

    /** RxJava's schedule handler. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.reactivex.rxjava3.plugins.RxJavaPlugins", "dev.senders.rxjava3.RxScheduledTaskTracking"})
    static class RxJavaHook {

        @Bean
        @ConditionalOnMissingBean(name = "sendersRxJavaScheduledTaskHooks")
        ScheduledTaskHooks sendersRxJavaScheduledTaskHooks() {
            Disposable installation;
            try {
                installation = RxScheduledTaskTracking.install();
            } catch (IllegalStateException lockedDown) {
                log.warn("{} Spawned RxJava work is then released when it is disposed, while its tasks may still run.",
                        lockedDown.getMessage());
                return new ScheduledTaskHooks("RxJava (not installed: plugins locked down)", () -> { });
            }
            return new ScheduledTaskHooks("RxJava", installation::dispose);
        }
    }
}
