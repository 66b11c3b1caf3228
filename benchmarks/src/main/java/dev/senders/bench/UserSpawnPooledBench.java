package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
import reactor.core.publisher.Mono;

/**
 * {@link UserSpawnBench} with the work on one shared 2-thread pool ({@code subscribeOn}): the
 * benchmark thread subscribes N tasks, the pool runs them, and each completes (and leaves its
 * tracker) on a pool thread, so the composites' {@code synchronized} add/remove are contended by
 * the pool threads, as in a server. The composites wait on a {@code CountDownLatch}, the scopes
 * with {@code close} + {@code syncWait(join)}. Same sources, schedulers and pool as
 * {@link PooledBench}'s Reactor and RxJava rows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class UserSpawnPooledBench {

    @Param({"1000", "100000"})
    int n;

    ExecutorService pool;
    reactor.core.scheduler.Scheduler reactorScheduler;
    Mono<Void> mono;
    Completable completable;

    @Setup(Level.Trial)
    public void setUp() {
        pool = Executors.newFixedThreadPool(2);
        reactorScheduler = reactor.core.scheduler.Schedulers.fromExecutorService(pool);
        mono = Mono.<Void>fromRunnable(Work.ATOMIC_INC).subscribeOn(reactorScheduler);
        completable = Completable.fromRunnable(Work.ATOMIC_INC)
                .subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.from(pool));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        reactorScheduler.dispose();
        pool.shutdown();
        Work.check(pool.awaitTermination(10, TimeUnit.SECONDS), "pool terminated");
    }

    @Benchmark
    public long reactorComposite() throws InterruptedException {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(new CountDownLatch(n));
        for (int i = 0; i < n; i++) {
            mono.subscribe(new HeldSubscriber(t));
        }
        t.latch.await();
        Work.check(Work.ATOMIC.get() == n && t.composite.size() == 0 && t.error == null, "reactorComposite");
        return n;
    }

    @Benchmark
    public long reactorSpawn() {
        Work.reset();
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            UserSpawnBench.refusedIf(ReactorScopes.spawn(mono, token) == ReactorScopes.REFUSED);
        }
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.ATOMIC.get() == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0,
                "reactorSpawn");
        return n;
    }

    @Benchmark
    public long rxComposite() throws InterruptedException {
        Work.reset();
        CompositeDisposable cd = new CompositeDisposable();
        CountDownLatch latch = new CountDownLatch(n);
        io.reactivex.rxjava3.functions.Action done = latch::countDown;
        for (int i = 0; i < n; i++) {
            completable.subscribe(done, InlineBench.ON_ERROR, cd);
        }
        latch.await();
        // RxJava calls onComplete before it removes the observer from the composite (PooledBench)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cd.size() != 0 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        Work.check(Work.ATOMIC.get() == n && cd.size() == 0, "rxComposite");
        return n;
    }

    @Benchmark
    public long rxSpawn() {
        Work.reset();
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            UserSpawnBench.refusedIf(RxScopes.spawn(completable, token) == RxScopes.REFUSED);
        }
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.ATOMIC.get() == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0,
                "rxSpawn");
        return n;
    }
}
