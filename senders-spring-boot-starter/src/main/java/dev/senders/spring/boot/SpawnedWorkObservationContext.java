package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Observation.Context} of one piece of named spawned work ({@link ObservationSpawnDecorator}):
 * the scope's name, the work's name (also the contextual name) and, once it ended, its outcome.
 * An {@code ObservationConvention} reads them when Micrometer asks for the key values (at start
 * and at stop); {@link DefaultSpawnedWorkObservationConvention} is the default one.
 */
public class SpawnedWorkObservationContext extends Observation.Context {

    private final String scopeName;
    private final String workName;
    private final SpawnedWorkKeyValues keyValues;
    private SpawnDecorator.@Nullable Outcome outcome;

    /**
     * The context of work {@code workName} spawned into scope {@code scopeName}.
     *
     * @param scopeName the scope's name
     * @param workName  the work's name
     */
    public SpawnedWorkObservationContext(String scopeName, String workName) {
        this(SpawnedWorkKeyValues.of(scopeName, workName));
    }

    SpawnedWorkObservationContext(SpawnedWorkKeyValues keyValues) {
        this.keyValues = keyValues;
        this.scopeName = keyValues.scopeName;
        this.workName = keyValues.workName;
        setContextualName(workName);
    }

    /**
     * The scope's name.
     *
     * @return the name the scope's token was decorated under
     */
    public String getScopeName() {
        return scopeName;
    }

    /**
     * The work's name.
     *
     * @return the name it was spawned under
     */
    public String getWorkName() {
        return workName;
    }

    /**
     * How the work ended.
     *
     * @return its outcome, {@code null} while it runs
     */
    public SpawnDecorator.@Nullable Outcome getOutcome() {
        return outcome;
    }

    /**
     * Sets the outcome; the decorator does it on the completing thread before it stops the observation.
     *
     * @param outcome how the work ended
     */
    public void setOutcome(SpawnDecorator.Outcome outcome) {
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** {@code scope}, {@code work} and, once ended, {@code outcome}: shared per name pair, not built per call. */
    KeyValues lowCardinalityKeyValues() {
        return keyValues.with(outcome);
    }
}
