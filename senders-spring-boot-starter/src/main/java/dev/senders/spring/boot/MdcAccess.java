package dev.senders.spring.boot;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.slf4j.spi.MDCAdapter;

/**
 * How {@link MdcSpawnDecorator} reads and writes the calling thread's SLF4J {@link MDC}. With
 * Logback 1.3 or later as the backend ({@code LogbackMDCAdapter} keeps a read-only copy of each
 * thread's map until the next write), {@link #current()} returns that read-only map: no copy, and
 * the same instance until the thread's MDC changes. With any other backend it returns
 * {@code MDC.getCopyOfContextMap()}, a copy per call. {@link #set} writes through SLF4J, which
 * copies the map into the thread's MDC. Chosen once, from the adapter SLF4J bound at the first use.
 */
abstract class MdcAccess {

    /** The access for the bound SLF4J backend. */
    static final MdcAccess INSTANCE = create();

    /**
     * The calling thread's MDC, never modified afterwards by anyone: the caller may keep it and
     * compare it by identity.
     *
     * @return the map, or {@code null} or an empty map when the MDC is empty
     */
    abstract @Nullable Map<String, String> current();

    /**
     * Replaces the calling thread's MDC with {@code map}.
     *
     * @param map the keys to set; {@code null} or empty clears the MDC
     */
    final void set(@Nullable Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            MDC.clear();
        } else {
            MDC.setContextMap(map);
        }
    }

    /** Whether SLF4J's MDC goes to Logback's adapter with its read-only map (Logback 1.3+). */
    static boolean logbackReadOnlyMap(MDCAdapter adapter) {
        if (!adapter.getClass().getName().equals("ch.qos.logback.classic.util.LogbackMDCAdapter")) {
            return false;
        }
        try {
            adapter.getClass().getDeclaredField("readOnlyThreadLocalMap");
            return true;
        } catch (NoSuchFieldException e) {
            return false; // Logback before 1.3: its property map is the live, writable one
        }
    }

    private static MdcAccess create() {
        MDCAdapter adapter = MDC.getMDCAdapter();
        return adapter != null && logbackReadOnlyMap(adapter) ? new Logback(adapter) : new Copying();
    }

    /** Logback 1.3+: the adapter's read-only map. */
    private static final class Logback extends MdcAccess {
        private final ch.qos.logback.classic.util.LogbackMDCAdapter adapter;

        Logback(MDCAdapter adapter) {
            this.adapter = (ch.qos.logback.classic.util.LogbackMDCAdapter) adapter;
        }

        @Override
        @Nullable Map<String, String> current() {
            return adapter.getPropertyMap();
        }

        @Override
        public String toString() {
            return "MdcAccess[Logback read-only map]";
        }
    }

    /** Any other backend: SLF4J's copy. */
    private static final class Copying extends MdcAccess {
        @Override
        @Nullable Map<String, String> current() {
            return MDC.getCopyOfContextMap();
        }

        @Override
        public String toString() {
            return "MdcAccess[copies]";
        }
    }
}
