package dev.senders.spring.boot;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The default convention of spawned work's observations ({@link ObservationSpawnDecorator}): name
 * {@value ObservationSpawnDecorator#NAME}, contextual name the work's name, low-cardinality keys
 * {@value ObservationSpawnDecorator#SCOPE}, {@value ObservationSpawnDecorator#WORK} and, once the
 * work ended, {@value ObservationSpawnDecorator#OUTCOME}; no high-cardinality keys. The key values
 * of a (scope, work) pair are built once and shared, and reported by the context when a handler
 * asks (see {@link #getLowCardinalityKeyValues}).
 */
public class DefaultSpawnedWorkObservationConvention implements ObservationConvention<SpawnedWorkObservationContext> {

    /** The shared instance. */
    public static final DefaultSpawnedWorkObservationConvention INSTANCE = new DefaultSpawnedWorkObservationConvention();

    /** Creates one (extend it to add keys). */
    public DefaultSpawnedWorkObservationConvention() {
    }

    @Override
    public String getName() {
        return ObservationSpawnDecorator.NAME;
    }

    @Override
    public String getContextualName(SpawnedWorkObservationContext context) {
        return context.getWorkName();
    }

    /**
     * {@code scope}, {@code work} and, once ended, {@code outcome}: the context reports them itself
     * from now on, computed when a handler asks ({@link SpawnedWorkObservationContext}), so nothing
     * is returned here to be copied into its map.
     */
    @Override
    public KeyValues getLowCardinalityKeyValues(SpawnedWorkObservationContext context) {
        context.reportBuiltInKeyValues();
        return KeyValues.empty();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof SpawnedWorkObservationContext;
    }
}
