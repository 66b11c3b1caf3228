package dev.senders.bench;

import dev.senders.reactor.ReactorSenders;
import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
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
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Adapter overhead: {@code toMono(fromMono(mono))} against {@code mono} itself, and
 * {@code toSingle(fromSingle(single))} against {@code single}, and the same with a {@code then(x -> x)}
 * between the conversions ({@code *RoundTripThen}: the boundary cost a real pipeline pays, since
 * nothing can be unwrapped there), each subscribed N times by a fresh
 * minimal subscriber/observer (the same class on both sides of each comparison). The source emits
 * a constant after a counter increment. The converted publishers are built once, as a user would.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AdapterBench {

    @Param({"1000", "100000"})
    int n;

    static long values;
    static long completions;

    static final Mono<Boolean> MONO = Mono.fromSupplier(SpawnFutureBench.SUPPLIER);
    static final Mono<Boolean> MONO_ROUND_TRIP = ReactorSenders.toMono(ReactorSenders.fromMono(MONO));
    /** The honest boundary: something composed between the conversions, so nothing can be unwrapped. */
    static final Mono<Boolean> MONO_ROUND_TRIP_THEN = ReactorSenders.toMono(ReactorSenders.fromMono(MONO).then(x -> x));
    static final Single<Boolean> SINGLE = Single.fromSupplier(SpawnFutureBench.SUPPLIER::get);
    static final Single<Boolean> SINGLE_ROUND_TRIP = RxSenders.toSingle(RxSenders.fromSingle(SINGLE));
    static final Single<Boolean> SINGLE_ROUND_TRIP_THEN = RxSenders.toSingle(RxSenders.fromSingle(SINGLE).then(x -> x));

    static final class Sub implements CoreSubscriber<Boolean> {
        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(Boolean v) {
            if (v) {
                values++;
            }
        }

        @Override
        public void onError(Throwable t) {
            throw new IllegalStateException(t);
        }

        @Override
        public void onComplete() {
            completions++;
        }
    }

    static final class Obs implements SingleObserver<Boolean> {
        @Override
        public void onSubscribe(Disposable d) {
        }

        @Override
        public void onSuccess(Boolean v) {
            if (v) {
                values++;
            }
            completions++;
        }

        @Override
        public void onError(Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private long run(Mono<Boolean> mono) {
        Work.reset();
        values = 0;
        completions = 0;
        for (int i = 0; i < n; i++) {
            mono.subscribe(new Sub());
        }
        Work.check(Work.count == n && values == n && completions == n, "mono");
        return values;
    }

    private long run(Single<Boolean> single) {
        Work.reset();
        values = 0;
        completions = 0;
        for (int i = 0; i < n; i++) {
            single.subscribe(new Obs());
        }
        Work.check(Work.count == n && values == n && completions == n, "single");
        return values;
    }

    @Benchmark
    public long monoPlain() {
        return run(MONO);
    }

    @Benchmark
    public long monoRoundTrip() {
        return run(MONO_ROUND_TRIP);
    }

    @Benchmark
    public long monoRoundTripThen() {
        return run(MONO_ROUND_TRIP_THEN);
    }

    @Benchmark
    public long singlePlain() {
        return run(SINGLE);
    }

    @Benchmark
    public long singleRoundTrip() {
        return run(SINGLE_ROUND_TRIP);
    }

    @Benchmark
    public long singleRoundTripThen() {
        return run(SINGLE_ROUND_TRIP_THEN);
    }
}
