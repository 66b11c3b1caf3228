package dev.senders.bench;

import dev.senders.reactor.ReactorSenders;
import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
import org.openjdk.jmh.annotations.Warmup;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A value's round trip through a sender, as a mixed pipeline has it, against the plain operator
 * that does the same step: {@code toMono(fromMono(mono).then(f))} against {@code mono.map(f)},
 * {@code toSingle(fromSingle(single).then(f))} against {@code single.map(f)} (N subscriptions, a
 * fresh minimal subscriber/observer each, the same class on both sides), and for streams one
 * subscription of N elements collected into one value (a sender carries one value):
 * {@code toMono(fromPublisherAll(flux).then(f))} against {@code flux.collectList().map(f)}, and
 * {@code toSingle(fromFlowableList(flowable).then(f))} against {@code flowable.toList().map(f)}
 * (per element). {@code f} is the identity. The sources are {@code fromSupplier} of a counter
 * increment and {@code range(0, N)}; every pipeline is built once, as a user would.
 *
 * <p>Something composed between the conversions ({@code then}) makes the boundary real:
 * {@code toMono(fromMono(m))} alone returns {@code m} itself (decision R1 in docs/decisions.md), so
 * it would measure the plain {@code Mono}. With the {@code then} the crossing is one operator that
 * applies the chain's stages (decision R4): these rows measure it against {@code map}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RoundTripBench {

    @Param({"1000", "100000"})
    int n;

    static long values;
    static long completions;

    static final Mono<Boolean> MONO = SpawnFutureBench.MONO;
    static final Single<Boolean> SINGLE = Single.fromSupplier(SpawnFutureBench.SUPPLIER::get);
    static final Function<Boolean, Boolean> F = v -> v;
    static final Mono<Boolean> MONO_MAP = MONO.map(F);
    static final Mono<Boolean> MONO_ROUND_TRIP = ReactorSenders.toMono(ReactorSenders.fromMono(MONO).then(F));
    static final Single<Boolean> SINGLE_MAP = SINGLE.map(F::apply);
    static final Single<Boolean> SINGLE_ROUND_TRIP = RxSenders.toSingle(RxSenders.fromSingle(SINGLE).then(F));

    static final Function<List<Integer>, List<Integer>> G = l -> l;
    Mono<List<Integer>> fluxCollect;
    Mono<List<Integer>> fluxRoundTrip;
    Single<List<Integer>> flowableCollect;
    Single<List<Integer>> flowableRoundTrip;

    @Setup(Level.Trial)
    public void setUp() {
        Flux<Integer> flux = Flux.range(0, n);
        fluxCollect = flux.collectList().map(G);
        fluxRoundTrip = ReactorSenders.toMono(ReactorSenders.fromPublisherAll(flux).then(G));
        Flowable<Integer> flowable = Flowable.range(0, n);
        flowableCollect = flowable.toList().map(G::apply);
        flowableRoundTrip = RxSenders.toSingle(RxSenders.fromFlowableList(flowable).then(G));
    }

    /** Counts values and completions; fails the run on an error. */
    static class Sub<T> implements CoreSubscriber<T> {
        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(T v) {
            if (v != null) {
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

    /** Counts values and completions; fails the run on an error. */
    static class Obs<T> implements SingleObserver<T> {
        @Override
        public void onSubscribe(Disposable d) {
        }

        @Override
        public void onSuccess(T v) {
            if (v != null) {
                values++;
            }
            completions++;
        }

        @Override
        public void onError(Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private long many(Mono<Boolean> mono, String what) {
        Work.reset();
        values = 0;
        completions = 0;
        for (int i = 0; i < n; i++) {
            mono.subscribe(new Sub<Boolean>());
        }
        Work.check(Work.count == n && values == n && completions == n, what);
        return values;
    }

    private long many(Single<Boolean> single, String what) {
        Work.reset();
        values = 0;
        completions = 0;
        for (int i = 0; i < n; i++) {
            single.subscribe(new Obs<Boolean>());
        }
        Work.check(Work.count == n && values == n && completions == n, what);
        return values;
    }

    private long once(Mono<List<Integer>> mono, String what) {
        values = 0;
        completions = 0;
        Sub<List<Integer>> s = new Sub<>() {
            @Override
            public void onNext(List<Integer> l) {
                values += l.size();
            }
        };
        mono.subscribe(s);
        Work.check(values == n && completions == 1, what);
        return values;
    }

    private long once(Single<List<Integer>> single, String what) {
        values = 0;
        completions = 0;
        single.subscribe(new Obs<List<Integer>>() {
            @Override
            public void onSuccess(List<Integer> l) {
                values += l.size();
                completions++;
            }
        });
        Work.check(values == n && completions == 1, what);
        return values;
    }

    @Benchmark
    public long monoMap() {
        return many(MONO_MAP, "monoMap");
    }

    @Benchmark
    public long monoRoundTrip() {
        return many(MONO_ROUND_TRIP, "monoRoundTrip");
    }

    @Benchmark
    public long singleMap() {
        return many(SINGLE_MAP, "singleMap");
    }

    @Benchmark
    public long singleRoundTrip() {
        return many(SINGLE_ROUND_TRIP, "singleRoundTrip");
    }

    @Benchmark
    public long fluxCollect() {
        return once(fluxCollect, "fluxCollect");
    }

    @Benchmark
    public long fluxRoundTrip() {
        return once(fluxRoundTrip, "fluxRoundTrip");
    }

    @Benchmark
    public long flowableCollect() {
        return once(flowableCollect, "flowableCollect");
    }

    @Benchmark
    public long flowableRoundTrip() {
        return once(flowableRoundTrip, "flowableRoundTrip");
    }
}
