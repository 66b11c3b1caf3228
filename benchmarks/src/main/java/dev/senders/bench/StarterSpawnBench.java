package dev.senders.bench;

import dev.senders.scope.CountingScope;
import dev.senders.scope.SpawnDecorator;
import dev.senders.spring.boot.ContextSnapshotSpawnDecorator;
import dev.senders.spring.boot.MdcSpawnDecorator;
import dev.senders.spring.boot.ObservationSpawnDecorator;
import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
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
import reactor.core.publisher.Mono;

/**
 * The Spring Boot starter's spawn path for Reactor work, beside {@code InlineBench.reactorSpawn}
 * (the adapter's own path, which the starter now takes): N inline {@code Mono}s
 * ({@code InlineBench.MONO}) spawned through a {@code ReactorScopeSpawner} into a
 * {@code CountingScope}, then close and join, per invocation (divide by N for a task).
 *
 * <ul>
 * <li>{@code starterPlain}: no decorator but the spawner's counting (no context-propagation
 *     library, no {@code ObservationRegistry}); unnamed work.
 * <li>{@code starterContext}: the starter's context decorators ({@code MdcSpawnDecorator},
 *     {@code ContextSnapshotSpawnDecorator}; an empty MDC, no registered accessor), and
 *     {@code contextCapture()} at subscription; unnamed work.
 * <li>{@code starterObservation}: an {@code ObservationSpawnDecorator} over a registry with one
 *     handler that does nothing; named work (only named work is observed).
 * <li>{@code starterBoth}: the context decorators and the observation; named work.
 * </ul>
 * Reproduce: {@code java -jar benchmarks/target/benchmarks.jar StarterSpawnBench -p n=1000 -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StarterSpawnBench {

    @Param({"1000"})
    int n;

    private static final ObservationRegistry HANDLED = ObservationRegistry.create();

    static {
        HANDLED.observationConfig().observationHandler(new SpawnerObservationBench.DoNothing());
    }

    private static final SpawnDecorator CONTEXT = SpawnDecorator.compose(
            List.of(new MdcSpawnDecorator(), new ContextSnapshotSpawnDecorator()));
    private static final SpawnDecorator OBSERVATION = new ObservationSpawnDecorator(HANDLED);
    private static final SpawnDecorator BOTH = CONTEXT.andThen(OBSERVATION);

    private long run(SpawnDecorator decorator, boolean named, String variant) {
        Work.reset();
        CountingScope scope = new CountingScope("bench");
        ReactorScopeSpawner spawner = new ReactorScopeSpawner(new ScopeSpawner(scope, "bench", decorator));
        Mono<Void> mono = InlineBench.MONO;
        for (int i = 0; i < n; i++) {
            if (!(named ? spawner.spawn(mono, "audit") : spawner.spawn(mono))) {
                throw new IllegalStateException("spawn refused");
            }
        }
        return InlineBench.joined(scope, n, false, variant);
    }

    @Benchmark
    public long starterPlain() {
        return run(SpawnDecorator.NONE, false, "starterPlain");
    }

    @Benchmark
    public long starterContext() {
        return run(CONTEXT, false, "starterContext");
    }

    @Benchmark
    public long starterObservation() {
        return run(OBSERVATION, true, "starterObservation");
    }

    @Benchmark
    public long starterBoth() {
        return run(BOTH, true, "starterBoth");
    }
}
