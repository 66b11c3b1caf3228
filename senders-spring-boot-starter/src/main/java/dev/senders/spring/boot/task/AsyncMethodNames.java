package dev.senders.spring.boot.task;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.scheduling.annotation.AsyncAnnotationAdvisor;
import org.springframework.util.ClassUtils;
import org.jspecify.annotations.Nullable;

/**
 * Names the tasks of {@code @Async} methods {@code Class#method} (the bean's user class, simple
 * name): on every proxy that {@code @EnableAsync} made, it adds, just before Spring's
 * {@link AsyncAnnotationAdvisor} and with the same pointcut, an interceptor that holds the method's
 * name in a thread-local while the call submits its task; a tracked executor
 * ({@link TaskExecutorTracking}) reads it on the submitting thread.
 *
 * <p>Not {@code Ordered} on purpose: Spring runs unordered post-processors after the ordered ones,
 * so {@code @EnableAsync}'s post-processor (ordered) has made its proxy by the time this one sees
 * the bean.
 */
public final class AsyncMethodNames implements BeanPostProcessor {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    /** Created by the starter's auto-configuration. */
    public AsyncMethodNames() {
    }

    /**
     * The name of the {@code @Async} method whose call is submitting a task on this thread.
     *
     * @return {@code Class#method}, or null outside such a call
     */
    public static @Nullable String current() {
        return CURRENT.get();
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof Advised advised && !advised.isFrozen()) {
            Advisor[] advisors = advised.getAdvisors();
            for (int i = 0; i < advisors.length; i++) {
                if (advisors[i] instanceof AsyncAnnotationAdvisor async) {
                    advised.addAdvisor(i, new DefaultPointcutAdvisor(async.getPointcut(), new Naming()));
                    break;
                }
                if (advisors[i].getAdvice() instanceof Naming) {
                    break; // already named
                }
            }
        }
        return bean;
    }

    /** Holds {@code Class#method} in the thread-local around the call. */
    private static final class Naming implements MethodInterceptor {
        @Override
        public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
            Object target = invocation.getThis();
            Class<?> type = target != null ? AopUtils.getTargetClass(target) : invocation.getMethod().getDeclaringClass();
            String previous = CURRENT.get();
            CURRENT.set(ClassUtils.getUserClass(type).getSimpleName() + "#" + invocation.getMethod().getName());
            try {
                return invocation.proceed();
            } finally {
                if (previous == null) {
                    CURRENT.remove();
                } else {
                    CURRENT.set(previous);
                }
            }
        }
    }
}
