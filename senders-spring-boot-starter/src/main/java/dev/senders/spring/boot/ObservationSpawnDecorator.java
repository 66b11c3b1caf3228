package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
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
 * <li>Its context is a {@link SpawnedWorkObservationContext} (scope, work, outcome); the key values
 *     come from an {@code ObservationConvention}: {@link DefaultSpawnedWorkObservationConvention}
 *     unless the registry or the constructor names another. Low-cardinality keys: {@value #SCOPE}
 *     (the scope's name), {@value #WORK} (the work's name), {@value #OUTCOME} ({@code value},
 *     {@code error} or {@code stopped}, once it ended). The error is recorded with
 *     {@link Observation#error(Throwable)}. The contextual name (a span's name) is the work's name.
 * <li>The parent is the observation current on the spawning thread at spawn, as Micrometer sets it
 *     when it creates the observation (the request's server observation in Spring MVC; in WebFlux
 *     when Reactor's automatic context propagation is on, {@code spring.reactor.context-propagation=auto}).
 * <li>The observation starts on the spawning thread when the scope accepts the work (a refused
 *     spawn makes none) and is current (its scope open) around the work's connect and start, so
 *     what the work observes or traces is its child and a Reactor {@code contextCapture()} at
 *     subscription carries it; it is current around an error's completion signal too, so the
 *     error's log line carries the work's trace. A completion with a value or a stop runs without
 *     it: nothing there belongs to the work.
 * <li>It stops on the thread that completes the work, before the scope releases it.
 * </ul>
 * Ordered after the context decorators ({@link #ORDER}), so it is installed inside the spawning
 * thread's context. Observations can be switched off by name with Spring Boot's
 * {@code management.observations.enable.senders.work=false} (an {@code ObservationPredicate}).
 */
public final class ObservationSpawnDecorator implements SpawnDecorator, Ordered {

    /*
     * Implementation notes. Per spawn: the context (with the shared key values of its name pair),
     * Micrometer's observation and the handlers' state; no parent lookup of ours (Micrometer does
     * one when it creates the observation), no key-value set built (the convention hands out the
     * pair's shared one). A scope is opened per install that needs the observation current; the
     * outcome is written by end() on the completing thread, which then installs the completion on
     * that same thread, so the plain field is read where it was written.
     */

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
    private final @Nullable ObservationConvention<SpawnedWorkObservationContext> convention;
    private final SpawnedWorkKeyValues.Cache keyValues = new SpawnedWorkKeyValues.Cache();

    /**
     * Observes into {@code registry}, with the registry's convention for the context if it has one,
     * else {@link DefaultSpawnedWorkObservationConvention}.
     *
     * @param registry where observations are made
     */
    public ObservationSpawnDecorator(ObservationRegistry registry) {
        this(registry, null);
    }

    /**
     * Observes into {@code registry} with {@code convention}.
     *
     * @param registry   where observations are made
     * @param convention the convention that names and tags the observations, {@code null} for the
     *                   registry's or the default one
     */
    public ObservationSpawnDecorator(ObservationRegistry registry,
            @Nullable ObservationConvention<SpawnedWorkObservationContext> convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
    }

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        if (workName == null || registry.isNoop()) {
            return Decoration.NONE;
        }
        SpawnedWorkObservationContext context =
                new SpawnedWorkObservationContext(keyValues.of(scopeName, workName));
        Observation observation = Observation.createNotStarted(convention,
                DefaultSpawnedWorkObservationConvention.INSTANCE, () -> context, registry);
        if (observation.isNoop()) {
            return Decoration.NONE;
        }
        return new Observed(observation.start(), context);
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
        private final SpawnedWorkObservationContext context;

        Observed(Observation observation, SpawnedWorkObservationContext context) {
            this.observation = observation;
            this.context = context;
        }

        @Override
        public Installed install() {
            Outcome outcome = context.getOutcome();
            if (outcome != null && outcome != Outcome.ERROR) {
                return Installed.NOTHING;
            }
            return observation.openScope()::close;
        }

        @Override
        public void end(Outcome outcome, @Nullable Throwable error) {
            context.setOutcome(outcome);
            if (error != null) {
                observation.error(error);
            }
            observation.stop();
        }
    }
}
