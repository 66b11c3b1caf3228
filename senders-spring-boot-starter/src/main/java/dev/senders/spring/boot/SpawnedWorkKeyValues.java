package dev.senders.spring.boot;

import dev.senders.scope.SpawnDecorator;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The low-cardinality key values of one (scope, work) name pair, for each outcome, built once and
 * shared by every observation of that pair: {@code scope}, {@code work}, and {@code outcome} once
 * the work ended. An {@link ObservationSpawnDecorator} keeps them in its own {@link Cache}.
 */
final class SpawnedWorkKeyValues {

    private static final KeyValue[] OUTCOMES = new KeyValue[SpawnDecorator.Outcome.values().length];

    static {
        for (SpawnDecorator.Outcome o : SpawnDecorator.Outcome.values()) {
            OUTCOMES[o.ordinal()] = KeyValue.of(ObservationSpawnDecorator.OUTCOME, o.tag());
        }
    }

    final String scopeName;
    final String workName;
    private final KeyValues running;
    private final KeyValues[] ended = new KeyValues[OUTCOMES.length];

    SpawnedWorkKeyValues(String scopeName, String workName) {
        this.scopeName = scopeName;
        this.workName = workName;
        this.running = KeyValues.of(KeyValue.of(ObservationSpawnDecorator.SCOPE, scopeName),
                KeyValue.of(ObservationSpawnDecorator.WORK, workName));
        for (int i = 0; i < OUTCOMES.length; i++) {
            ended[i] = running.and(OUTCOMES[i]);
        }
    }

    /** The key values with {@code outcome}, or without one while the work runs. */
    KeyValues with(SpawnDecorator.@Nullable Outcome outcome) {
        return outcome == null ? running : ended[outcome.ordinal()];
    }

    /**
     * One decorator's key values by name pair: at most {@link #MAX_CACHED} pairs are kept; past
     * that (unbounded work names, which the starter's documentation warns against) they are built
     * per call. Thread-safe.
     */
    static final class Cache {

        /** The most name pairs kept. */
        static final int MAX_CACHED = 1024;

        private final ConcurrentMap<String, ConcurrentMap<String, SpawnedWorkKeyValues>> byScope = new ConcurrentHashMap<>();
        /** Counts the cached pairs (approximately: racing first uses may each count). */
        private final AtomicInteger cached = new AtomicInteger();

        /** The key values of the pair, shared while fewer than {@link #MAX_CACHED} pairs are. */
        SpawnedWorkKeyValues of(String scopeName, String workName) {
            ConcurrentMap<String, SpawnedWorkKeyValues> byWork = byScope.get(scopeName);
            SpawnedWorkKeyValues kv = byWork == null ? null : byWork.get(workName);
            if (kv != null) {
                return kv;
            }
            kv = new SpawnedWorkKeyValues(scopeName, workName);
            if (cached.get() < MAX_CACHED) {
                cached.incrementAndGet();
                SpawnedWorkKeyValues raced = byScope.computeIfAbsent(scopeName, s -> new ConcurrentHashMap<>())
                        .putIfAbsent(workName, kv);
                return raced != null ? raced : kv;
            }
            return kv;
        }
    }
}
