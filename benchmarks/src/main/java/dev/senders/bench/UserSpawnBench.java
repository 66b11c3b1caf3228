package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
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
 * The path a Reactor or RxJava user takes into the library: code that tracked fire-and-forget
 * work in a composite replaces {@code composite.add(mono.subscribe())} by
 * {@code ReactorScopes.spawn(mono, token)} (and {@code completable.subscribe(..., compositeDisposable)}
 * by {@code RxScopes.spawn(completable, token)}). N trivial tasks that complete inside
 * {@code subscribe}, each tracked until it ends, then waited for (the scopes: {@code close} +
 * {@code syncWait(join)}; the composites need no wait, everything ended in the loop).
 *
 * <ul>
 * <li>{@code reactorComposite}: Reactor's cheapest correct tracking, {@link HeldSubscriber} (holds
 *     itself in {@code Disposables.composite()} from {@code onSubscribe} until it terminates);
 * <li>{@code reactorSpawn}: {@code ReactorScopes.spawn(mono, token)} into a {@link CountingScope}
 *     (the like-for-like peer: {@code requestStop()} cancels everything, as the composite's
 *     {@code dispose()} does); {@code reactorSpawnSimple}: into a {@link SimpleCountingScope};
 * <li>{@code rxComposite}: {@code Completable.subscribe(onComplete, onError, compositeDisposable)};
 *     {@code rxSpawn} / {@code rxSpawnSimple}: {@code RxScopes.spawn(completable, token)}.
 * </ul>
 * The sources are {@code Mono.fromRunnable(task)} and {@code Completable.fromRunnable(task)}, built
 * once; their own per-subscription objects are paid by both sides.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class UserSpawnBench {

    @Param({"1000", "100000"})
    int n;

    static final Mono<Void> MONO = InlineBench.MONO;
    static final Completable COMPLETABLE = InlineBench.COMPLETABLE;

    @Benchmark
    public long reactorComposite() {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        for (int i = 0; i < n; i++) {
            MONO.subscribe(new HeldSubscriber(t));
        }
        Work.check(Work.count == n && t.composite.size() == 0 && t.error == null, "reactorComposite");
        return Work.count;
    }

    @Benchmark
    public long reactorSpawn() {
        Work.reset();
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            refusedIf(ReactorScopes.spawn(MONO, token) == ReactorScopes.REFUSED);
        }
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0, "reactorSpawn");
        return Work.count;
    }

    @Benchmark
    public long reactorSpawnSimple() {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            refusedIf(ReactorScopes.spawn(MONO, token) == ReactorScopes.REFUSED);
        }
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0,
                "reactorSpawnSimple");
        return Work.count;
    }

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

    @Benchmark
    public long rxSpawn() {
        Work.reset();
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            refusedIf(RxScopes.spawn(COMPLETABLE, token) == RxScopes.REFUSED);
        }
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0, "rxSpawn");
        return Work.count;
    }

    @Benchmark
    public long rxSpawnSimple() {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            refusedIf(RxScopes.spawn(COMPLETABLE, token) == RxScopes.REFUSED);
        }
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0,
                "rxSpawnSimple");
        return Work.count;
    }

    static void refusedIf(boolean refused) {
        if (refused) {
            throw new IllegalStateException("spawn refused");
        }
    }
}
