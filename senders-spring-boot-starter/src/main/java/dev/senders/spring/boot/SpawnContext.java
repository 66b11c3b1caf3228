package dev.senders.spring.boot;

import java.util.Objects;

/**
 * Carries the spawning thread's context (MDC, trace, security context, ...) to spawned work.
 *
 * <p>{@link ScopeSpawner} calls {@link #capture()} on the spawning thread, once per spawn, and
 * installs the result ({@link Snapshot#restore()}) on whatever thread connects or starts the work
 * and on whatever thread the work completes, for as long as that call lasts: the work's start (a
 * {@code Mono}'s subscription, say) and its completion (so the log line of a failure carries the
 * request's MDC) see the context of the request that spawned it. Work that hops threads on its
 * own needs its own propagation there: Reactor's automatic mode
 * ({@code spring.reactor.context-propagation=auto}) does it for Reactor operators, given the
 * {@code Context} that {@link ReactorScopeSpawner} writes at subscription.
 *
 * <p>The starter defines one when Micrometer's context-propagation library is on the class path
 * ({@code senders.scope.context-propagation=true}, the default): the whole SLF4J MDC
 * ({@link MdcSpawnContext}) and then every registered {@code ThreadLocalAccessor}
 * ({@link MicrometerSpawnContext}); else {@link #NONE}. An application can define its own bean to
 * carry something else.
 */
@FunctionalInterface
public interface SpawnContext {

    /** Carries nothing. */
    SpawnContext NONE = () -> Snapshot.EMPTY;

    /**
     * Captures the calling thread's context. Called on the spawning thread; must not throw.
     *
     * @return the captured context
     */
    Snapshot capture();

    /**
     * This context and then {@code next}: both captured at spawn; restored in this order and
     * uninstalled in the reverse order.
     *
     * @param next what to carry besides this context
     * @return the combined context
     */
    default SpawnContext and(SpawnContext next) {
        Objects.requireNonNull(next, "next");
        SpawnContext first = this;
        return () -> {
            Snapshot a = first.capture();
            Snapshot b = next.capture();
            return () -> {
                Restored ra = a.restore();
                Restored rb;
                try {
                    rb = b.restore();
                } catch (RuntimeException | Error e) {
                    ra.close();
                    throw e;
                }
                return () -> {
                    try {
                        rb.close();
                    } finally {
                        ra.close();
                    }
                };
            };
        };
    }

    /** A captured context. */
    @FunctionalInterface
    interface Snapshot {

        /** Installs nothing. */
        Snapshot EMPTY = () -> Restored.NOTHING;

        /**
         * Installs the captured context on the calling thread until the result is closed, which
         * puts back what the thread had before. Must not throw.
         *
         * @return what to close, on this thread, to uninstall it
         */
        Restored restore();
    }

    /** An installed context; {@link #close()} uninstalls it, on the thread that installed it. */
    @FunctionalInterface
    interface Restored extends AutoCloseable {

        /** Nothing to uninstall. */
        Restored NOTHING = () -> { };

        @Override
        void close();
    }
}
