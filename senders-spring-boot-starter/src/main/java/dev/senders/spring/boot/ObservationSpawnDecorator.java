package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;

/**
 * A {@link SpawnDecorator} that makes each piece of named spawned work a Micrometer
 * {@link Observation} named {@value #NAME}, so a trace shows the background work beside the
 * request that spawned it and a {@code senders.work} timer counts it by outcome.
 *
 * <ul>
 * <li>Only work spawned with a name is observed; unnamed work costs nothing here. Work names
 *     become a tag: give them a bounded set of values (a kind of work, not an id).
 * <li>Low-cardinality keys: {@value #SCOPE} (the scope's name), {@value #WORK} (the work's name),
 *     {@value #OUTCOME} ({@code value}, {@code error} or {@code stopped}, set when it ends). The
 *     error is recorded with {@link Observation#error(Throwable)}. The contextual name (a span's
 *     name) is the work's name.
 * <li>The parent is the observation current on the spawning thread at spawn (the request's server
 *     observation in Spring MVC; in WebFlux when Reactor's automatic context propagation is on,
 *     {@code spring.reactor.context-propagation=auto}).
 * <li>The observation starts on the spawning thread when the scope accepts the work (a refused
 *     spawn makes none), is current around the work's connect, start and completion signals, and
 *     stops on the thread that completes the work, before the scope releases it.
 * </ul>
 * Ordered after the context decorators ({@link #ORDER}), so it is installed inside the spawning
 * thread's context. Observations can be switched off by name with Spring Boot's
 * {@code management.observations.enable.senders.work=false} (an {@code ObservationPredicate}).
 */
public final class ObservationSpawnDecorator implements SpawnDecorator, Ordered {

    /** The observation's name. */
    public static final String NAME = "senders.work";
    /** The key of the scope's name. */
    public static final String SCOPE = "scope";
    /** The key of the work's name. */
    public static final String WORK = "work";
    /** The key of the outcome: {@code value}, {@code error} or {@code stopped}. */
    public static final String OUTCOME = "outcome";
    /** Its order: after the starter's context decorators. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 3000;

    private final ObservationRegistry registry;

    /**
     * Observes into {@code registry}.
     *
     * @param registry where observations are made
     */
    public ObservationSpawnDecorator(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        if (workName == null || registry.isNoop()) {
            return Decoration.NONE;
        }
        return new Observed(Observation.createNotStarted(NAME, registry)
                .parentObservation(registry.getCurrentObservation())
                .contextualName(workName)
                .lowCardinalityKeyValue(SCOPE, scopeName)
                .lowCardinalityKeyValue(WORK, workName)
                .start());
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return "ObservationSpawnDecorator[" + registry + "]";
    }

    /** A started observation; ended once by the completing thread. */
    private static final class Observed implements Decoration {

        private final Observation observation;

        Observed(Observation observation) {
            this.observation = observation;
        }

        @Override
        public Installed install() {
            return observation.openScope()::close;
        }

        @Override
        public void end(Outcome outcome, @Nullable Throwable error) {
            if (error != null) {
                observation.error(error);
            }
            observation.lowCardinalityKeyValue(OUTCOME, outcome.tag());
            observation.stop();
        }
    }
}
