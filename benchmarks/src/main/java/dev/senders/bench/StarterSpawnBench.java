package dev.senders.bench;

import dev.senders.scope.CountingScope;
import dev.senders.scope.SpawnDecorator;
import dev.senders.spring.boot.ContextSnapshotSpawnDecorator;
import dev.senders.spring.boot.MdcSpawnDecorator;
import dev.senders.spring.boot.ObservationSpawnDecorator;
import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.slf4j.MDC;
import reactor.core.publisher.Mono;

/**
 * The Spring Boot starter's spawn path for Reactor work against the code it replaces: N
 * async-shaped {@code Mono}s ({@code InlineBench.ASYNC_MONO}: neither {@code Callable} nor
 * fuseable, as a {@code WebClient} or R2DBC Mono is) spawned through a {@code ReactorScopeSpawner}
 * into a {@code CountingScope}, then close and join, per invocation (divide by N for a task).
 * Observation rows observe into {@link #BOOT}: what a Boot app with Actuator gets (Boot's
 * {@code DefaultMeterObservationHandler} over a {@code SimpleMeterRegistry}); SLF4J is Logback, Boot's
 * default; the context registry is the global {@code ContextRegistry} with what its
 * {@code ServiceLoader} finds (Micrometer's {@code ObservationThreadLocalAccessor}).
 *
 * <ul>
 * <li>{@code starterPlain}: no decorator but the spawner's counting; unnamed work.
 * <li>{@code starterContext}: the starter's context decorators ({@code MdcSpawnDecorator},
 *     {@code ContextSnapshotSpawnDecorator}) and {@code contextCapture()} at subscription, on a
 *     thread with nothing to carry (an empty MDC, no current observation); unnamed work.
 * <li>{@code starterObservation}: an {@code ObservationSpawnDecorator} only; named work (only named
 *     work is observed), no parent.
 * <li>{@code starterBoth}: the context decorators and the observation, on a thread with nothing to
 *     carry; named work.
 * <li>{@code starterBoot}: Boot's defaults on a request thread ({@link RequestThread}: two MDC
 *     keys, a current {@code http.server.requests} observation): all three decorators, named work.
 * </ul>
 * The hand-written peers, on the same source: {@code composite} (each subscription held in a
 * {@code Disposables.composite()} until it terminates, {@code HeldSubscriber}) and
 * {@code compositeObserved} (the same inside {@code Observation.start(name, BOOT)} ... {@code stop()},
 * on a request thread: its parent is the current observation). {@code compositeObservedKeyed} is
 * {@code compositeObserved} with the three low-cardinality keys the starter's observation records
 * ({@code scope}, {@code work}, {@code outcome}): a measurement of what the keys cost, not a goal's peer.
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

    /** What a Boot app with Actuator observes into: the meter handler over a meter registry. */
    static final ObservationRegistry BOOT = ObservationRegistry.create();

    static {
        BOOT.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
        ObservationThreadLocalAccessor.getInstance().setObservationRegistry(BOOT);
    }

    private static final SpawnDecorator CONTEXT = SpawnDecorator.compose(
            List.of(new MdcSpawnDecorator(), new ContextSnapshotSpawnDecorator()));
    private static final SpawnDecorator OBSERVATION = new ObservationSpawnDecorator(BOOT);
    private static final SpawnDecorator BOTH = CONTEXT.andThen(OBSERVATION);

    /** A request thread: two MDC keys and a current server observation, as a Boot app's handler has. */
    @State(Scope.Thread)
    public static class RequestThread {
        private Observation request;
        private Observation.Scope scope;

        @Setup(Level.Trial)
        public void enter() {
            MDC.put("traceId", "6a4f0e1d2c3b4a59");
            MDC.put("user", "bench");
            request = Observation.start("http.server.requests", BOOT);
            scope = request.openScope();
        }

        @TearDown(Level.Trial)
        public void leave() {
            scope.close();
            request.stop();
            MDC.clear();
        }
    }

    /**
     * Ends its observation when the subscription terminates: the hand-written observed peer; keyed,
     * it records the outcome key before it stops the observation.
     */
    static final class ObservedSubscriber extends HeldSubscriber {
        private static final KeyValue VALUE = KeyValue.of(ObservationSpawnDecorator.OUTCOME, "value");
        private static final KeyValue ERROR = KeyValue.of(ObservationSpawnDecorator.OUTCOME, "error");
        private final Observation observation;
        private final boolean keyed;

        ObservedSubscriber(Tracker tracker, Observation observation, boolean keyed) {
            super(tracker);
            this.observation = observation;
            this.keyed = keyed;
        }

        @Override
        void terminated(Throwable error) {
            if (error != null) {
                observation.error(error);
            }
            if (keyed) {
                observation.lowCardinalityKeyValue(error != null ? ERROR : VALUE);
            }
            observation.stop();
        }
    }

    private static final KeyValue SCOPE_KEY = KeyValue.of(ObservationSpawnDecorator.SCOPE, "bench");
    private static final KeyValue WORK_KEY = KeyValue.of(ObservationSpawnDecorator.WORK, "audit");

    private long run(SpawnDecorator decorator, boolean named, String variant) {
        Work.reset();
        CountingScope scope = new CountingScope("bench");
        ReactorScopeSpawner spawner = new ReactorScopeSpawner(new ScopeSpawner(scope, "bench", decorator));
        Mono<Void> mono = InlineBench.ASYNC_MONO;
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

    @Benchmark
    public long starterBoot(RequestThread request) {
        return run(BOTH, true, "starterBoot");
    }

    /** {@code ASYNC_MONO.subscribe(held)}, each subscriber held in a composite until it terminates. */
    @Benchmark
    public long composite() {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        Mono<Void> mono = InlineBench.ASYNC_MONO;
        for (int i = 0; i < n; i++) {
            mono.subscribe(new HeldSubscriber(t));
        }
        Work.check(Work.count == n && t.composite.size() == 0 && t.error == null, "composite");
        return Work.count;
    }

    /** {@link #composite} inside a hand-written {@code Observation.start(name, BOOT)} ... {@code stop()}. */
    @Benchmark
    public long compositeObserved(RequestThread request) {
        return observed(false, "compositeObserved");
    }

    /**
     * {@link #compositeObserved} with the starter's three low-cardinality keys: {@code scope} and
     * {@code work} before the start, {@code outcome} before the stop (shared {@code KeyValue}s).
     */
    @Benchmark
    public long compositeObservedKeyed(RequestThread request) {
        return observed(true, "compositeObservedKeyed");
    }

    private long observed(boolean keyed, String variant) {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        Mono<Void> mono = InlineBench.ASYNC_MONO;
        for (int i = 0; i < n; i++) {
            Observation observation = keyed
                    ? Observation.createNotStarted(ObservationSpawnDecorator.NAME, BOOT)
                            .lowCardinalityKeyValue(SCOPE_KEY).lowCardinalityKeyValue(WORK_KEY).start()
                    : Observation.start(ObservationSpawnDecorator.NAME, BOOT);
            mono.subscribe(new ObservedSubscriber(t, observation, keyed));
        }
        Work.check(Work.count == n && t.composite.size() == 0 && t.error == null, variant);
        return Work.count;
    }
}
