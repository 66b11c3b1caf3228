package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.scope.Scopes;
import java.util.Collections;
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
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Structured fan-out of N children that all must end before the parent completes:
 * {@code syncWait(letAsyncScope(token -> spawn N children; just()))} against
 * {@code Flux.range(0, N).flatMap(i -> mono).then().block()} and
 * {@code Mono.when(N monos).block()}. Children are inline counter increments.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LetAsyncScopeBench {

    @Param({"1000", "100000"})
    int n;

    static final Mono<Void> MONO = Mono.fromRunnable(Work.INC);

    @Benchmark
    public long letAsyncScope() {
        Work.reset();
        int count = n;
        Senders.syncWait(Scopes.letAsyncScope(token -> {
            for (int i = 0; i < count; i++) {
                if (!Scopes.spawn(Tasks.INLINE, token)) {
                    throw new IllegalStateException("spawn refused");
                }
            }
            return Senders.just();
        }));
        Work.check(Work.count == n, "letAsyncScope");
        return Work.count;
    }

    @Benchmark
    public long fluxFlatMap() {
        Work.reset();
        Flux.range(0, n).flatMap(i -> MONO).then().block();
        Work.check(Work.count == n, "fluxFlatMap");
        return Work.count;
    }

    @Benchmark
    public long monoWhen() {
        Work.reset();
        Mono.when(Collections.nCopies(n, MONO)).block();
        Work.check(Work.count == n, "monoWhen");
        return Work.count;
    }
}
