package dev.senders.spring.boot;

import java.util.Map;
import org.slf4j.MDC;

/**
 * A {@link SpawnContext} that carries the spawning thread's whole SLF4J {@link MDC}: every key, with
 * nothing to register. {@link #capture()} copies the map; a restore replaces the thread's MDC with
 * the copy (an empty copy clears it, so one request's keys never leak into another request's work)
 * and closing it puts back the thread's own map.
 *
 * <p>It reaches where the starter installs context: the work's connect and start and each of its
 * completion signals (so the log line of a failure carries the request's MDC). Reactor work that
 * moves to another thread keeps only the MDC keys that Reactor's automatic context propagation
 * restores, those registered as {@code ThreadLocalAccessor}s.
 */
public final class MdcSpawnContext implements SpawnContext {

    /** Creates one; it holds no state. */
    public MdcSpawnContext() {
    }

    @Override
    public Snapshot capture() {
        Map<String, String> captured = MDC.getCopyOfContextMap();
        return () -> {
            Map<String, String> previous = MDC.getCopyOfContextMap();
            set(captured);
            return () -> set(previous);
        };
    }

    private static void set(Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            MDC.clear();
        } else {
            MDC.setContextMap(map);
        }
    }

    @Override
    public String toString() {
        return "MdcSpawnContext";
    }
}
