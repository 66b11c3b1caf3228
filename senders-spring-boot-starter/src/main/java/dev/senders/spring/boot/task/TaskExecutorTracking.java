package dev.senders.spring.boot.task;

import dev.senders.scope.ScopeExecutor;
import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.ScopeTracked;
import java.util.concurrent.Executor;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.jspecify.annotations.Nullable;

/**
 * Puts executor beans into the application scope: Spring Boot's {@code applicationTaskExecutor}
 * (unless {@code senders.scope.track-task-executor=false}) and every {@link Executor} bean marked
 * {@link ScopeTracked}. Such a bean is replaced by a class-based proxy of its own type whose
 * {@code execute}, {@code submit} and {@code submitCompletable} go through a {@link ScopeExecutor}
 * ({@link TrackedExecutorInterceptor}).
 *
 * <p>A tracked {@link ExecutorConfigurationSupport} ({@code ThreadPoolTaskExecutor}) is also set to
 * accept tasks after the context-closed event: otherwise it would refuse the tasks of requests the
 * web server is still draining, and its lifecycle stop (phase {@code DEFAULT_PHASE}, before the
 * scope's) would wait for its tasks before the server had even drained. The scope's shutdown joins
 * (and, past the grace, interrupts) them instead; the executor is shut down when its bean is
 * destroyed, after every lifecycle phase.
 */
public final class TaskExecutorTracking implements BeanPostProcessor, BeanFactoryAware, BeanClassLoaderAware {

    /** Spring Boot's auto-configured executor. */
    public static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    private final boolean trackApplicationExecutor;
    private final ObjectProvider<ScopeSpawner> spawners;
    private @Nullable ConfigurableListableBeanFactory beanFactory;
    private @Nullable ClassLoader classLoader;

    /**
     * @param trackApplicationExecutor whether Spring Boot's {@code applicationTaskExecutor} is tracked
     * @param spawners the application scope's spawner, resolved at the first task
     */
    public TaskExecutorTracking(boolean trackApplicationExecutor, ObjectProvider<ScopeSpawner> spawners) {
        this.trackApplicationExecutor = trackApplicationExecutor;
        this.spawners = spawners;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory instanceof ConfigurableListableBeanFactory c ? c : null;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    private boolean tracked(Object bean, String beanName) {
        if (!(bean instanceof Executor) || bean instanceof ScopeExecutor) {
            return false;
        }
        if (trackApplicationExecutor && APPLICATION_TASK_EXECUTOR.equals(beanName)) {
            return true;
        }
        if (bean.getClass().isAnnotationPresent(ScopeTracked.class)) {
            return true;
        }
        return beanFactory != null && beanFactory.containsBeanDefinition(beanName)
                && beanFactory.findAnnotationOnBean(beanName, ScopeTracked.class, false) != null;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
        if (bean instanceof ExecutorConfigurationSupport executor && tracked(bean, beanName)) {
            executor.setAcceptTasksAfterContextClose(true);
        }
        return bean;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        if (!tracked(bean, beanName)) {
            return bean;
        }
        ProxyFactory proxy = new ProxyFactory(bean);
        proxy.setProxyTargetClass(true);
        proxy.addAdvice(new TrackedExecutorInterceptor((Executor) bean, beanName, spawners));
        return proxy.getProxy(classLoader);
    }
}
