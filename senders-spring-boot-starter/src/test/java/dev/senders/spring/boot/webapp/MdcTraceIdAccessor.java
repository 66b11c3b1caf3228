package dev.senders.spring.boot.webapp;

import io.micrometer.context.ThreadLocalAccessor;
import org.slf4j.MDC;

/**
 * The MDC key {@code traceId} as a context-propagation {@link ThreadLocalAccessor} (what Micrometer
 * Tracing's bridge does for a real trace): Reactor's automatic mode restores it from the request's
 * {@code Context}, the starter's context capture takes it to spawned work.
 */
public final class MdcTraceIdAccessor implements ThreadLocalAccessor<String> {

    public static final String KEY = "traceId";

    @Override
    public Object key() {
        return KEY;
    }

    @Override
    public String getValue() {
        return MDC.get(KEY);
    }

    @Override
    public void setValue(String value) {
        MDC.put(KEY, value);
    }

    @Override
    public void setValue() {
        MDC.remove(KEY);
    }
}
