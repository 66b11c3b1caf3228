package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;

/**
 * A {@link SpawnDecorator} backed by Micrometer's context-propagation library: {@link #decorate}
 * takes a {@link ContextSnapshot} of every {@code ThreadLocalAccessor} registered with the
 * {@link ContextRegistry} (the trace of Micrometer Tracing, Spring Security's context, MDC keys
 * registered with {@code Slf4jThreadLocalAccessor}, ...) on the spawning thread, and an install
 * sets exactly those values: accessors that had no value when captured are cleared for the
 * duration, so one request's values never leak into another request's work on a shared thread.
 * Closing the install puts back the thread's previous values. Ordered after
 * {@link MdcSpawnDecorator} ({@link #ORDER}).
 */
public final class ContextSnapshotSpawnDecorator implements SpawnDecorator, Ordered {

    /** Its order: after the MDC, before the observation. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 2000;

    private final ContextSnapshotFactory factory;

    /** Over the global {@link ContextRegistry#getInstance()}, clearing missing values. */
    public ContextSnapshotSpawnDecorator() {
        this(ContextSnapshotFactory.builder().contextRegistry(ContextRegistry.getInstance()).clearMissing(true).build());
    }

    /**
     * Over the given factory (its registry and clearing rule).
     *
     * @param factory makes the snapshots
     */
    public ContextSnapshotSpawnDecorator(ContextSnapshotFactory factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        ContextSnapshot snapshot = factory.captureAll();
        return () -> snapshot.setThreadLocals()::close;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return "ContextSnapshotSpawnDecorator[" + factory + "]";
    }
}
