package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.ScopeSpawner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.ClassUtils;
import org.jspecify.annotations.Nullable;

/**
 * Says at startup, in one {@code INFO} line, what keeps the spawning request's context (MDC, trace)
 * from reaching spawned work, and nothing when nothing does:
 * <ul>
 * <li>{@code io.micrometer:context-propagation} is not on the class path: spawned work carries no
 *     context at all;
 * <li>the Reactor spawner is defined and Reactor's automatic context propagation is off
 *     ({@code spring.reactor.context-propagation} is not {@code auto}): Reactor work has the
 *     context where it starts and completes, not after it moves to another thread.
 * </ul>
 * Checked once all singletons exist (Spring Boot's Reactor auto-configuration has applied the
 * property by then), on the thread that refreshes the context. Not defined when
 * {@code senders.scope.context-propagation=false}.
 */
final class ContextPropagationStartupCheck implements SmartInitializingSingleton {

    private static final Logger LOG = LoggerFactory.getLogger(ContextPropagationStartupCheck.class);

    private final ScopeSpawner spawner;
    private final boolean reactorSpawner;
    private final ClassLoader classLoader;

    ContextPropagationStartupCheck(ScopeSpawner spawner, boolean reactorSpawner, ClassLoader classLoader) {
        this.spawner = spawner;
        this.reactorSpawner = reactorSpawner;
        this.classLoader = classLoader;
    }

    @Override
    public void afterSingletonsInstantiated() {
        String missing = missing();
        if (missing != null) {
            LOG.info(missing);
        }
    }

    /** The line to log, or {@code null} when the context reaches spawned work. */
    @Nullable String missing() {
        if (!ClassUtils.isPresent("io.micrometer.context.ContextSnapshot", classLoader)) {
            return "Work spawned into scope '" + spawner.name() + "' does not carry the spawning request's MDC and"
                    + " trace: io.micrometer:context-propagation is not on the class path (add it, or set"
                    + " senders.scope.context-propagation=false to drop this line)";
        }
        if (reactorSpawner && spawner.decorates() && !ReactorHooks.automaticContextPropagation()) {
            return "Reactor work spawned into scope '" + spawner.name() + "' has the spawning request's MDC and"
                    + " trace where it starts and completes, but not after it moves to another thread: set"
                    + " spring.reactor.context-propagation=auto (MDC keys other than the trace's also need a"
                    + " ThreadLocalAccessor, e.g. ContextRegistry.getInstance().registerThreadLocalAccessor("
                    + "new Slf4jThreadLocalAccessor(\"orderId\")))";
        }
        return null;
    }

    /** Touched only when the Reactor spawner, hence Reactor, is there. */
    private static final class ReactorHooks {
        static boolean automaticContextPropagation() {
            return reactor.core.publisher.Hooks.isAutomaticContextPropagationEnabled();
        }
    }
}
