package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.springframework.core.Ordered;

/**
 * A {@link SpawnDecorator} that carries the spawning thread's whole SLF4J {@link MDC}: every key,
 * with nothing to register. {@link #decorate} copies the map on the spawning thread; an install
 * replaces the thread's MDC with the copy (an empty copy clears it, so one request's keys never
 * leak into another request's work) and closing it puts back the thread's own map.
 *
 * <p>It reaches where decorations are installed: the work's connect and start and each of its
 * completion signals (so the log line of a failure carries the request's MDC). Reactor work that
 * moves to another thread keeps only the MDC keys that Reactor's automatic context propagation
 * restores, those registered as {@code ThreadLocalAccessor}s. Ordered first among the starter's
 * decorators ({@link #ORDER}).
 */
public final class MdcSpawnDecorator implements SpawnDecorator, Ordered {

    /** Its order: outermost of the starter's decorators. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1000;

    /** Creates one; it holds no state. */
    public MdcSpawnDecorator() {
    }

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        Map<String, String> captured = MDC.getCopyOfContextMap();
        return () -> {
            Map<String, String> previous = MDC.getCopyOfContextMap();
            set(captured);
            return () -> set(previous);
        };
    }

    private static void set(@Nullable Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            MDC.clear();
        } else {
            MDC.setContextMap(map);
        }
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return "MdcSpawnDecorator";
    }
}
