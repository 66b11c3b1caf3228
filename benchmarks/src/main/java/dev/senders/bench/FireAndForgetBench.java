package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.reactor.FireAndForget;
import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What the fire-and-forget hooks ({@code dev.senders.reactor.FireAndForget},
 * {@code dev.senders.rxjava3.FireAndForget}, both installed in the mode {@code hooks} names) cost,
 * per invocation of N subscriptions (the renderer divides by N). Reactor:
 * <ul>
 * <li>{@link #block} and {@link #operatorChain}: subscriptions that are never found (a
 *     {@code block()}, an operator chain whose inner subscriptions are made by {@code concatMap})
 *     with {@code hooks=off} (nothing installed) against {@code report} and {@code track}: the cost
 *     of the hook's test on every {@code subscribe};
 * <li>{@link #trackedSubscribe} ({@code hooks=track}): a plain {@code mono.subscribe()} found (a
 *     stack walk: it has no callback) and tracked by the hook, and
 *     {@link #trackedSubscribeWithCallback}: {@code subscribe(consumer)}, found by the callback's class,
 *     against {@link #composite} ({@code hooks=off}): the same {@code Mono} subscribed with a
 *     subscriber held in {@code Disposables.composite()} until it terminates, what a user writes
 *     by hand.
 * </ul>
 * RxJava, the same shapes: {@link #rxBlockingGet} ({@code single.blockingGet()} of a short chain)
 * and {@link #rxFlatMapChain} (a {@code flatMap} of four inner {@code Flowable}s, blocked on),
 * never found; {@link #rxTrackedSubscribe} ({@code completable.subscribe()}, a stack walk) and
 * {@link #rxTrackedSubscribeWithCallback} ({@code subscribe(onComplete, onError)}, found by its
 * callback's class) against {@link #rxComposite} ({@code hooks=off}): {@code subscribe(onComplete,
 * onError, compositeDisposable)} on the same {@code Completable}.
 * The benchmark class's package counts as the application's (the default framework packages
 * without the library's).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FireAndForgetBench {

    @Param({"1000"})
    int n;

    /** {@code off}: no hook; {@code report}, {@code track}: the hook installed in that mode. */
    @Param({"off", "report", "track"})
    String hooks;

    static final Mono<Void> MONO = Mono.fromRunnable(Work.INC);
    static final Mono<Integer> CHAIN = Mono.just(1).map(x -> x + 1).filter(x -> x > 0);
    static final Flux<Integer> INNER = Flux.range(0, 4).concatMap(i -> Mono.just(i).map(x -> x + 1));

    static final Completable COMPLETABLE = InlineBench.COMPLETABLE;
    static final Single<Integer> RX_CHAIN = Single.just(1).map(x -> x + 1).map(x -> x * 1);
    static final Flowable<Integer> RX_INNER = Flowable.range(0, 4).flatMap(i -> Flowable.just(i).map(x -> x + 1));

    private CountingScope scope;
    private FireAndForgetTracker tracker;
    private FireAndForgetTracker rxTracker;

    @Setup
    public void install() {
        scope = new CountingScope("bench");
        if (!hooks.equals("off")) {
            FireAndForgetMode mode = FireAndForgetMode.valueOf(hooks.toUpperCase(Locale.ROOT));
            tracker = FireAndForget.install(scope, mode, List.of("reactor.", "dev.senders.reactor."), false);
            rxTracker = dev.senders.rxjava3.FireAndForget.install(scope, mode,
                    List.of("io.reactivex.", "dev.senders.rxjava3."), false);
        }
    }

    @TearDown
    public void remove() {
        if (tracker != null) {
            tracker.close();
            rxTracker.close();
        }
        scope.close();
        Senders.syncWait(scope.join());
    }

    /** {@code mono.block()} of a short operator chain, N times: never found. */
    @Benchmark
    public long block() {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += CHAIN.block();
        }
        Work.check(sum == 2L * n, "block");
        return sum;
    }

    /** A {@code concatMap} of four inner {@code Mono}s, blocked on, N times: the inner subscriptions are never found. */
    @Benchmark
    public long operatorChain() {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += INNER.blockLast();
        }
        Work.check(sum == 4L * n, "operatorChain");
        return sum;
    }

    /** {@code Mono.fromRunnable(..).subscribe()}, N times: found and, with {@code hooks=track}, tracked. */
    @Benchmark
    public long trackedSubscribe() {
        Work.reset();
        for (int i = 0; i < n; i++) {
            MONO.subscribe();
        }
        Work.check(Work.count == n && scope.count() == 0, "trackedSubscribe");
        return Work.count;
    }

    static final java.util.function.Consumer<Object> IGNORE = x -> { };

    /**
     * {@code Mono.fromRunnable(..).subscribe(consumer)}, N times: found by its callback's class (no
     * stack walk) and, with {@code hooks=track}, tracked.
     */
    @Benchmark
    public long trackedSubscribeWithCallback() {
        Work.reset();
        for (int i = 0; i < n; i++) {
            MONO.subscribe(IGNORE);
        }
        Work.check(Work.count == n && scope.count() == 0, "trackedSubscribeWithCallback");
        return Work.count;
    }

    /** {@code single.blockingGet()} of a short operator chain, N times: never found. */
    @Benchmark
    public long rxBlockingGet() {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += RX_CHAIN.blockingGet();
        }
        Work.check(sum == 2L * n, "rxBlockingGet");
        return sum;
    }

    /** A {@code flatMap} of four inner {@code Flowable}s, blocked on, N times: the inner subscriptions are never found. */
    @Benchmark
    public long rxFlatMapChain() {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += RX_INNER.blockingLast();
        }
        Work.check(sum == 4L * n, "rxFlatMapChain");
        return sum;
    }

    /** {@code Completable.fromRunnable(..).subscribe()}, N times: found (a stack walk) and, with {@code hooks=track}, tracked. */
    @Benchmark
    public long rxTrackedSubscribe() {
        Work.reset();
        for (int i = 0; i < n; i++) {
            COMPLETABLE.subscribe();
        }
        Work.check(Work.count == n && scope.count() == 0, "rxTrackedSubscribe");
        return Work.count;
    }

    /**
     * {@code Completable.fromRunnable(..).subscribe(onComplete, onError)}, N times: found by its
     * callback's class (no stack walk) and, with {@code hooks=track}, tracked; the peer adds the
     * same callbacks' observer to a {@code CompositeDisposable} ({@link #rxComposite}).
     */
    @Benchmark
    public long rxTrackedSubscribeWithCallback() {
        Work.reset();
        for (int i = 0; i < n; i++) {
            COMPLETABLE.subscribe(InlineBench.NOTHING, InlineBench.ON_ERROR);
        }
        Work.check(Work.count == n && scope.count() == 0, "rxTrackedSubscribeWithCallback");
        return Work.count;
    }

    /**
     * The peer of the found rows, with {@code hooks=off}: what a user writes by hand to keep the
     * same {@code Mono}'s subscriptions cancellable, a subscriber held in
     * {@code Disposables.composite()} until it terminates ({@code InlineBench.reactor}), here in the
     * same JMH run.
     */
    @Benchmark
    public long composite() {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        for (int i = 0; i < n; i++) {
            MONO.subscribe(new HeldSubscriber(t));
        }
        Work.check(Work.count == n && t.composite.size() == 0, "composite");
        return Work.count;
    }

    /**
     * The RxJava peer, with {@code hooks=off}: {@code subscribe(onComplete, onError,
     * compositeDisposable)} on the same {@code Completable} ({@code InlineBench.rxjava}).
     */
    @Benchmark
    public long rxComposite() {
        Work.reset();
        CompositeDisposable cd = new CompositeDisposable();
        for (int i = 0; i < n; i++) {
            COMPLETABLE.subscribe(InlineBench.NOTHING, InlineBench.ON_ERROR, cd);
        }
        Work.check(Work.count == n && cd.size() == 0, "rxComposite");
        return Work.count;
    }
}
