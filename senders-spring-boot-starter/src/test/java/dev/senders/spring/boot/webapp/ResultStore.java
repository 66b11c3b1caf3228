package dev.senders.spring.boot.webapp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for a bean that spawned work uses (a connection pool, a client): it records results,
 * and {@link #close()} (its destroy method, run when the context destroys its beans) makes every
 * later use a violation, counted in {@link #lateUses}.
 */
public final class ResultStore implements AutoCloseable {

    public final Map<String, String> results = new ConcurrentHashMap<>();
    public final AtomicInteger lateUses = new AtomicInteger();
    private volatile boolean closed;

    /** Records {@code value} under {@code key}; after {@link #close()} counts a late use and fails. */
    public void put(String key, String value) {
        if (closed) {
            lateUses.incrementAndGet();
            throw new IllegalStateException("result store used after it was closed: " + key);
        }
        results.put(key, value);
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
    }
}
