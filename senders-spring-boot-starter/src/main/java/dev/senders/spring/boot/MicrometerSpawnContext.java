package dev.senders.spring.boot;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.Objects;

/**
 * A {@link SpawnContext} backed by Micrometer's context-propagation library: {@link #capture()}
 * takes a {@link ContextSnapshot} of every {@code ThreadLocalAccessor} registered with the
 * {@link ContextRegistry} (the trace of Micrometer Tracing, Spring Security's context, MDC keys
 * registered with {@code Slf4jThreadLocalAccessor}, ...), and a restore sets exactly those values:
 * accessors that had no value when captured are cleared for the duration, so one request's values
 * never leak into another request's work on a shared thread. Closing the restore puts back the
 * thread's previous values.
 */
public final class MicrometerSpawnContext implements SpawnContext {

    private final ContextSnapshotFactory factory;

    /** Over the global {@link ContextRegistry#getInstance()}, clearing missing values. */
    public MicrometerSpawnContext() {
        this(ContextSnapshotFactory.builder().contextRegistry(ContextRegistry.getInstance()).clearMissing(true).build());
    }

    /**
     * Over the given factory (its registry and clearing rule).
     *
     * @param factory makes the snapshots
     */
    public MicrometerSpawnContext(ContextSnapshotFactory factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public Snapshot capture() {
        ContextSnapshot snapshot = factory.captureAll();
        return () -> snapshot.setThreadLocals()::close;
    }

    @Override
    public String toString() {
        return "MicrometerSpawnContext[" + factory + "]";
    }
}
