package dev.senders.spring.boot;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Observes each piece of work spawned through a {@link ScopeSpawner}: prepared on the spawning
 * thread, started when the scope accepts the work, told how it ended.
 *
 * <p>The lifecycle of one piece of work, and the thread each step runs on:
 * <ol>
 * <li>{@link #prepare} on the spawning thread, inside {@code spawn}, before the scope is asked:
 *     this is where the spawning request's observation is read as the parent;
 * <li>{@link Pending#start()} when the scope accepted the work and connects it, still on the
 *     spawning thread (not called at all when the scope refuses the work);
 * <li>{@link Running#open()} around the work's connect and start, on the thread that runs them,
 *     so the work's own observations and log lines are children of this one;
 * <li>{@link Running#end} exactly once, on the thread that completes the work, before the scope
 *     is told (a join never completes before the observation is ended).
 * </ol>
 * The starter defines one backed by Micrometer's {@code ObservationRegistry} when such a bean
 * exists ({@link MicrometerWorkObservation}), else {@link #NONE}. Implementations must not throw.
 * Any piece of work that reaches the scope through a {@code ScopeSpawner} is observed alike,
 * whether a sender, a {@code Mono} or a task of an executor that spawns through it.
 */
@FunctionalInterface
public interface WorkObservation {

    /** Observes nothing. */
    WorkObservation NONE = (scopeName, workName) -> Pending.NONE;

    /**
     * Prepares the observation of one piece of work. Called on the spawning thread.
     *
     * @param scopeName the scope's name
     * @param workName  the work's name, or {@code null} for work spawned without one
     * @return what to start if the scope accepts the work
     */
    Pending prepare(String scopeName, @Nullable String workName);

    /** How a piece of spawned work ended. */
    enum Outcome {
        /** It completed with a value (for a {@code Mono} or {@code Completable}: it completed). */
        VALUE,
        /** It failed; the error goes to the scope's handler. */
        ERROR,
        /** It was stopped (cancelled, or stopped by the scope at shutdown). */
        STOPPED;

        /**
         * The outcome's tag value.
         *
         * @return {@code value}, {@code error} or {@code stopped}
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An observation prepared at spawn, not started yet. */
    @FunctionalInterface
    interface Pending {

        /** Starts nothing. */
        Pending NONE = () -> Running.NONE;

        /**
         * Starts the observation: the scope accepted the work. Called once, on the spawning thread.
         *
         * @return the running observation
         */
        Running start();
    }

    /** A started observation of one piece of work. */
    interface Running {

        /** Observes nothing. */
        Running NONE = new Running() {
            @Override
            public SpawnContext.Restored open() {
                return SpawnContext.Restored.NOTHING;
            }

            @Override
            public void end(Outcome outcome, @Nullable Throwable error) {
            }
        };

        /**
         * Makes the observation the current one on the calling thread until the result is closed.
         *
         * @return what to close, on this thread
         */
        SpawnContext.Restored open();

        /**
         * Ends the observation. Called once, on the thread that completes the work.
         *
         * @param outcome how the work ended
         * @param error   its error when {@code outcome} is {@link Outcome#ERROR}, else {@code null}
         */
        void end(Outcome outcome, @Nullable Throwable error);
    }
}
