package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.ScopeState;
import dev.senders.spring.boot.ObservationSpawnDecorator;
import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.scope.SpawnDecorator;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the starter's observation of spawned work costs: N named inline tasks spawned through a
 * {@code ScopeSpawner} into a {@code CountingScope}, and one join, per invocation (the score is per
 * invocation; divide by N for a task). No context propagation in any of them.
 *
 * <ul>
 * <li>{@code observationOff}: no {@code ObservationRegistry} ({@code SpawnDecorator.NONE}), as
 *     without Micrometer or Actuator.
 * <li>{@code noopRegistry}: a registry without handlers: each task gets Micrometer's no-op
 *     observation (the parent lookup and the creation are paid, nothing is recorded).
 * <li>{@code observationOn}: a registry with one handler that does nothing: every task is an
 *     {@code Observation} (created, started, current around start, tagged, stopped). A tracer or
 *     a timer handler adds its own cost on top.
 * </ul>
 * Reproduce: {@code java -jar benchmarks/target/benchmarks.jar SpawnerObservationBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SpawnerObservationBench {

    @Param({"1000"})
    int n;

    private static final ObservationRegistry NOOP = ObservationRegistry.create();
    private static final ObservationRegistry HANDLED = ObservationRegistry.create();

    static {
        HANDLED.observationConfig().observationHandler(new DoNothing());
    }

    /** Handles every context and does nothing with it. */
    static final class DoNothing implements ObservationHandler<Observation.Context> {
        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    private long run(SpawnDecorator observation, String what) {
        Work.reset();
        CountingScope scope = new CountingScope("bench");
        ScopeSpawner spawner = new ScopeSpawner(scope, "bench", observation, OutstandingSummary.DEFAULT_LIMIT);
        for (int i = 0; i < n; i++) {
            if (!spawner.spawn(Tasks.INLINE, "task")) {
                throw new IllegalStateException("spawn refused");
            }
        }
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.count() == 0 && scope.state() == ScopeState.JOINED, what);
        return Work.count;
    }

    @Benchmark
    public long observationOff() {
        return run(SpawnDecorator.NONE, "observationOff");
    }

    @Benchmark
    public long noopRegistry() {
        return run(new ObservationSpawnDecorator(NOOP), "noopRegistry");
    }

    @Benchmark
    public long observationOn() {
        return run(new ObservationSpawnDecorator(HANDLED), "observationOn");
    }
}
