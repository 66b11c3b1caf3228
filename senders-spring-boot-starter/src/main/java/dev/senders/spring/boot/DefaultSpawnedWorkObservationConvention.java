package dev.senders.spring.boot;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The default convention of spawned work's observations ({@link ObservationSpawnDecorator}): name
 * {@value ObservationSpawnDecorator#NAME}, contextual name the work's name, low-cardinality keys
 * {@value ObservationSpawnDecorator#SCOPE}, {@value ObservationSpawnDecorator#WORK} and, once the
 * work ended, {@value ObservationSpawnDecorator#OUTCOME}; no high-cardinality keys. The key values
 * of a (scope, work) pair are built once and shared.
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

    @Override
    public KeyValues getLowCardinalityKeyValues(SpawnedWorkObservationContext context) {
        return context.lowCardinalityKeyValues();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof SpawnedWorkObservationContext;
    }
}
