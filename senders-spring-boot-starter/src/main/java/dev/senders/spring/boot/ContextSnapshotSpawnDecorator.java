package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.observation.Observation;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * A {@link SpawnDecorator} backed by Micrometer's context-propagation library: {@link #decorate}
 * captures, on the spawning thread, the value of every {@code ThreadLocalAccessor} registered with
 * a {@link ContextRegistry} (the trace of Micrometer Tracing, Spring Security's context, MDC keys
 * registered with {@code Slf4jThreadLocalAccessor}, ...), and an install sets exactly those values:
 * an accessor that had no value when captured is cleared for the duration if it has one on the
 * installing thread, so one request's values never leak into another request's work on a shared
 * thread. Closing the install puts back the thread's previous values. Ordered after
 * {@link MdcSpawnDecorator} ({@link #ORDER}).
 *
 * <ul>
 * <li>When no registered accessor has a value, nothing is captured: every such spawn shares one
 *     decoration, whose install touches only the accessors that have a value on the installing
 *     thread (clears them, and restores them on close).
 * <li>An install writes only the accessors whose value differs from the captured one: on the
 *     spawning thread, nothing.
 * <li>The current Micrometer {@code Observation} ({@code ObservationThreadLocalAccessor}) is left
 *     as it is when it is spawned work's own observation ({@link ObservationSpawnDecorator}) whose
 *     parent is the captured one (or, with none captured, that has no parent): it is already inside
 *     the request's trace, and the request's observation is not made current again under it.
 * <li>Over a {@link ContextSnapshotFactory} ({@link #ContextSnapshotSpawnDecorator(ContextSnapshotFactory)}),
 *     each spawn takes a {@link ContextSnapshot} ({@code captureAll()}) and each install sets it
 *     ({@code setThreadLocals()}): the factory's key filter and clearing rule apply as they are.
 * </ul>
 */
public final class ContextSnapshotSpawnDecorator implements SpawnDecorator, Ordered {

    /*
     * Implementation notes. A capture is one Object[] of (accessor, value) pairs for the accessors
     * that had a value, in the registry's order, never written after capture, so a decoration may
     * be installed on several threads at once. An install walks the registry's accessors as they
     * are then (one registered after the capture is cleared like any accessor without a captured
     * value), and allocates its undo list only when it writes: entries (accessor, previous value,
     * whether it was set or cleared), undone in reverse order with restore(previous) or restore().
     */

    /** Its order: after the MDC, before the observation. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 2000;

    /** {@code ObservationThreadLocalAccessor.KEY}, when micrometer-observation is on the class path. */
    private static final @Nullable Object OBSERVATION_KEY =
            ClassUtils.isPresent("io.micrometer.observation.Observation", ContextSnapshotSpawnDecorator.class.getClassLoader())
                    ? ObservationKey.KEY : null;

    private final @Nullable ContextRegistry registry;
    private final @Nullable ContextSnapshotFactory factory;
    /** The decoration of every spawn from a thread where no accessor has a value. */
    private final Decoration empty;

    /** Over the global {@link ContextRegistry#getInstance()}. */
    public ContextSnapshotSpawnDecorator() {
        this(ContextRegistry.getInstance());
    }

    /**
     * Over {@code registry}'s thread-local accessors, clearing those without a captured value.
     *
     * @param registry the accessors to carry
     */
    public ContextSnapshotSpawnDecorator(ContextRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.factory = null;
        this.empty = () -> install(registry.getThreadLocalAccessors(), NOTHING_CAPTURED);
    }

    /**
     * Over the given factory (its registry, key filter and clearing rule): a snapshot per spawn.
     *
     * @param factory makes the snapshots
     */
    public ContextSnapshotSpawnDecorator(ContextSnapshotFactory factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.registry = null;
        this.empty = Decoration.NONE;
    }

    private static final Object[] NOTHING_CAPTURED = new Object[0];

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        ContextRegistry r = registry;
        if (r == null) {
            ContextSnapshot snapshot = Objects.requireNonNull(factory).captureAll();
            return () -> snapshot.setThreadLocals()::close;
        }
        List<ThreadLocalAccessor<?>> accessors = r.getThreadLocalAccessors();
        Object[] captured = null;
        int n = 0;
        for (int i = 0, size = accessors.size(); i < size; i++) {
            ThreadLocalAccessor<?> accessor = accessors.get(i);
            Object value = accessor.getValue();
            if (value != null) {
                if (captured == null) {
                    captured = new Object[2 * (size - i)];
                }
                captured[n++] = accessor;
                captured[n++] = value;
            }
        }
        if (captured == null) {
            return empty;
        }
        Object[] pairs = n == captured.length ? captured : Arrays.copyOf(captured, n);
        return () -> install(r.getThreadLocalAccessors(), pairs);
    }

    /** Sets {@code captured}'s values on this thread, clears the other accessors that have one. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Installed install(List<ThreadLocalAccessor<?>> accessors, Object[] captured) {
        Object[] undo = null; // (accessor, previous value or null, Boolean set) triples
        int u = 0;
        for (int i = 0, size = accessors.size(); i < size; i++) {
            ThreadLocalAccessor accessor = accessors.get(i);
            Object value = valueOf(captured, accessor);
            Object current = accessor.getValue();
            if (value == current || current != null && ownWork(accessor, current, value)) {
                continue;
            }
            if (undo == null) {
                undo = new Object[3 * (size - i)];
            }
            undo[u++] = accessor;
            undo[u++] = current;
            if (value != null) {
                accessor.setValue(value);
                undo[u++] = Boolean.TRUE;
            } else {
                accessor.setValue();
                undo[u++] = Boolean.FALSE;
            }
        }
        if (undo == null) {
            return Installed.NOTHING;
        }
        Object[] done = undo;
        int end = u;
        return () -> restore(done, end);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void restore(Object[] undo, int end) {
        for (int j = end - 3; j >= 0; j -= 3) {
            ThreadLocalAccessor accessor = (ThreadLocalAccessor) undo[j];
            Object previous = undo[j + 1];
            if (previous != null) {
                accessor.restore(previous);
            } else {
                accessor.restore();
            }
        }
    }

    private static @Nullable Object valueOf(Object[] captured, ThreadLocalAccessor<?> accessor) {
        for (int j = 0; j < captured.length; j += 2) {
            if (captured[j] == accessor) {
                return captured[j + 1];
            }
        }
        return null;
    }

    /**
     * Whether {@code current} is the observation of spawned work under the captured {@code value}
     * (the work's own, which {@link ObservationSpawnDecorator} made current): left as it is.
     */
    private static boolean ownWork(ThreadLocalAccessor<?> accessor, Object current, @Nullable Object value) {
        return OBSERVATION_KEY != null && OBSERVATION_KEY.equals(accessor.key()) && ObservationKey.workUnder(current, value);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return "ContextSnapshotSpawnDecorator[" + (factory != null ? factory : registry) + "]";
    }

    /** What is read of micrometer-observation, loaded only when it is on the class path. */
    private static final class ObservationKey {
        static final Object KEY = io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor.KEY;

        static boolean workUnder(Object current, @Nullable Object parent) {
            return current instanceof Observation o && o.getContextView() instanceof SpawnedWorkObservationContext
                    && o.getContextView().getParentObservation() == parent;
        }
    }
}
