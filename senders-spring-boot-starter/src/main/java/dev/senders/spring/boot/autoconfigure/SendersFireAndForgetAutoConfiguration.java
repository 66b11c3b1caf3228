package dev.senders.spring.boot.autoconfigure;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.spring.boot.FireAndForgetHooks;
import dev.senders.spring.boot.SendersScopeProperties;
import dev.senders.spring.boot.metrics.FireAndForgetMetrics;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.BeanCurrentlyInCreationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The fire-and-forget hooks ({@code senders.scope.fire-and-forget}: {@code off}, the default,
 * {@code report} or {@code track}) for the application scope, on Reactor and RxJava as far as they
 * and their adapters are on the class path, with their shutdown log and, with Micrometer, their
 * meters. A user {@link FireAndForgetHooks} bean replaces the hooks.
 */
@AutoConfiguration(after = SendersScopeAutoConfiguration.class)
@ConditionalOnClass(FireAndForgetTracker.class)
@ConditionalOnBean(CountingScope.class)
public final class SendersFireAndForgetAutoConfiguration {

    /** Created by Spring when the conditions match. */
    SendersFireAndForgetAutoConfiguration() {
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    FireAndForgetHooks fireAndForgetHooks(CountingScope scope, SendersScopeProperties properties) {
        ClassLoader cl = SendersFireAndForgetAutoConfiguration.class.getClassLoader();
        boolean reactor = ClassUtils.isPresent("reactor.core.publisher.Mono", cl)
                && ClassUtils.isPresent("dev.senders.reactor.FireAndForget", cl);
        boolean rxjava = ClassUtils.isPresent("io.reactivex.rxjava3.core.Single", cl)
                && ClassUtils.isPresent("dev.senders.rxjava3.FireAndForget", cl);
        return new FireAndForgetHooks(scope, properties.getFireAndForget(), reactor, rxjava,
                FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES);
    }

    /**
     * Installs the hooks before the first application bean is initialized, so that a subscription
     * made while the context starts (a refresher subscribed in a bean's initialization) is found.
     * Nothing is done early when the mode is {@code off}; Spring's and the library's own beans
     * (property bindings among them, which the hooks' bean needs itself) never trigger it, and a
     * bean whose creation the hooks' bean would need leaves it to the next bean.
     */
    @Bean
    static BeanPostProcessor fireAndForgetEarlyInstall(ObjectProvider<FireAndForgetHooks> hooks, Environment environment) {
        boolean on = SendersScopeProperties.bind(environment).getFireAndForget() != FireAndForgetMode.OFF;
        AtomicBoolean done = new AtomicBoolean(!on);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (!done.get() && isApplicationBean(bean) && done.compareAndSet(false, true)) {
                    try {
                        hooks.getIfAvailable(); // creates the hooks bean (and installs) now
                    } catch (BeanCurrentlyInCreationException dependsOnThisOne) {
                        done.set(false);
                    }
                }
                return bean;
            }
        };
    }

    private static boolean isApplicationBean(Object bean) {
        String name = bean.getClass().getName();
        return !name.startsWith("org.springframework.") && !name.startsWith("dev.senders.");
    }

    /** The meters, with Micrometer on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean
        FireAndForgetMetrics fireAndForgetMetrics(FireAndForgetHooks hooks) {
            return new FireAndForgetMetrics(hooks);
        }
    }
}
