package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Observation.Context} of one piece of named spawned work ({@link ObservationSpawnDecorator}):
 * the scope's name, the work's name (also the contextual name) and, once it ended, its outcome.
 *
 * <p>Its low-cardinality key values are {@code scope}, {@code work} and, once ended,
 * {@code outcome}, computed from these fields when a handler asks ({@link #getLowCardinalityKeyValues()})
 * rather than stored in the context's map, once {@link DefaultSpawnedWorkObservationConvention}
 * (or a convention extending it that calls its {@code getLowCardinalityKeyValues}) was asked for
 * them; key values added to the context (by another convention, a filter, a handler) are reported
 * beside them and win on the same key. With a convention that does not ask the default one, only
 * the added key values are reported.
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
        this(new SpawnedWorkKeyValues(Objects.requireNonNull(scopeName, "scopeName"),
                Objects.requireNonNull(workName, "workName")));
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

    /** Whether the default convention asked for the built-in key values: then they are reported. */
    private boolean builtIn;
    /** Whether key values were added to the context's own map. */
    private boolean added;

    /** Reports the built-in key values from now on; called by the default convention. */
    void reportBuiltInKeyValues() {
        builtIn = true;
    }

    @Override
    public Observation.Context addLowCardinalityKeyValue(KeyValue keyValue) {
        added = true;
        return super.addLowCardinalityKeyValue(keyValue);
    }

    @Override
    public Observation.Context addLowCardinalityKeyValues(KeyValues keyValues) {
        if (keyValues != KeyValues.empty() && keyValues.iterator().hasNext()) {
            added = true;
            super.addLowCardinalityKeyValues(keyValues);
        }
        return this;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues() {
        if (!builtIn) {
            return super.getLowCardinalityKeyValues();
        }
        KeyValues own = keyValues.with(outcome);
        return added ? own.and(super.getLowCardinalityKeyValues()) : own;
    }

    @Override
    public @Nullable KeyValue getLowCardinalityKeyValue(String key) {
        KeyValue kv = added || !builtIn ? super.getLowCardinalityKeyValue(key) : null;
        if (kv != null || !builtIn) {
            return kv;
        }
        for (KeyValue own : keyValues.with(outcome)) {
            if (own.getKey().equals(key)) {
                return own;
            }
        }
        return null;
    }

    @Override
    public KeyValues getAllKeyValues() {
        return getLowCardinalityKeyValues().and(getHighCardinalityKeyValues());
    }
}
