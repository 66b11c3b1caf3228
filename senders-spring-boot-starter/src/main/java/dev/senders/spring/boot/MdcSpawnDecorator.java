package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.springframework.core.Ordered;

/**
 * A {@link SpawnDecorator} that carries the spawning thread's whole SLF4J {@link MDC}: every key,
 * with nothing to register. {@link #decorate} captures the map on the spawning thread; an install
 * replaces the thread's MDC with it (an empty capture clears it, so one request's keys never leak
 * into another request's work) and closing it puts back the thread's own map.
 *
 * <ul>
 * <li>An empty MDC is captured as nothing: every such spawn shares one decoration, which on
 *     install clears only a thread whose MDC has keys (and puts them back on close).
 * <li>An install over an MDC equal to the captured one (the spawning thread itself, or a thread
 *     already carrying it) writes nothing.
 * <li>With Logback 1.3 or later, the capture is Logback's read-only copy of the thread's map,
 *     shared, not copied; other backends copy it through SLF4J. An install that writes copies the
 *     map into the thread's MDC (SLF4J's {@code setContextMap}).
 * </ul>
 *
 * <p>It reaches where decorations are installed: the work's connect and start and each of its
 * completion signals (so the log line of a failure carries the request's MDC). Reactor work that
 * moves to another thread keeps only the MDC keys that Reactor's automatic context propagation
 * restores, those registered as {@code ThreadLocalAccessor}s. Ordered first among the starter's
 * decorators ({@link #ORDER}).
 */
public final class MdcSpawnDecorator implements SpawnDecorator, Ordered {

    /*
     * The captured map is never written after capture: Logback's read-only map is replaced, not
     * modified, when the thread's MDC changes, and SLF4J's copy is ours. So a decoration may be
     * installed on several threads at once, and an identity test on the spawning thread tells an
     * unchanged MDC without comparing entries.
     */

    /** Its order: outermost of the starter's decorators. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1000;

    /** The decoration of every spawn from an empty MDC. */
    private static final Decoration EMPTY = () -> {
        Map<String, String> previous = MdcAccess.INSTANCE.current();
        if (previous == null || previous.isEmpty()) {
            return Installed.NOTHING;
        }
        MDC.clear();
        return () -> MdcAccess.INSTANCE.set(previous);
    };

    /** Creates one; it holds no state. */
    public MdcSpawnDecorator() {
    }

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        Map<String, String> captured = MdcAccess.INSTANCE.current();
        return captured == null || captured.isEmpty() ? EMPTY : new Carried(captured);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return "MdcSpawnDecorator[" + MdcAccess.INSTANCE + "]";
    }

    /** A non-empty captured MDC. */
    private static final class Carried implements Decoration {

        private final Map<String, String> captured;

        Carried(Map<String, String> captured) {
            this.captured = captured;
        }

        @Override
        public Installed install() {
            MdcAccess mdc = MdcAccess.INSTANCE;
            Map<String, String> previous = mdc.current();
            if (previous == captured || captured.equals(previous)) {
                return Installed.NOTHING;
            }
            mdc.set(captured);
            return () -> mdc.set(previous);
        }
    }
}
