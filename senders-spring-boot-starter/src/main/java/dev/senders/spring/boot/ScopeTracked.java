package dev.senders.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts the tasks of an {@link java.util.concurrent.Executor} bean (a {@code TaskExecutor}, a
 * {@code ThreadPoolTaskExecutor}, any {@code ExecutorService}) into the application scope, as the
 * starter does by default for Spring Boot's {@code applicationTaskExecutor}: each task submitted
 * to the bean is work of the scope from submission until it ends, so the starter's shutdown joins
 * it, stops (interrupts) it when it outlives the grace, lists it by name, and counts it in the
 * meters, health and endpoint. Put it on the {@code @Bean} method or on the bean's class.
 *
 * <pre>{@code
 * @Bean @ScopeTracked
 * ThreadPoolTaskExecutor reportExecutor() { ... }
 * }</pre>
 *
 * The bean is replaced by a class-based proxy of its own type whose {@code execute}, {@code submit}
 * and {@code submitCompletable} go through a {@link dev.senders.scope.ScopeExecutor}; its other
 * methods reach the bean unchanged. Applies whatever {@code senders.scope.track-task-executor} says
 * (that property is about Spring Boot's executor only).
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ScopeTracked {
}
