package dev.senders.bench;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.concurrent.CompletableFuture;
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
 * The same fire-and-forget workload on one shared 2-thread {@code ExecutorService}, wrapped for
 * each library: {@code Schedulers.fromExecutor} + {@code startsOn} (ours), Reactor
 * {@code Schedulers.fromExecutorService} + {@code subscribeOn}, RxJava {@code Schedulers.from} +
 * {@code subscribeOn}, {@code CompletableFuture.runAsync(task, pool)}; the floor is a bare
 * {@code execute} counted down on a {@code CountDownLatch}. The benchmark thread submits all N
 * tasks, then waits for all of them.
 *
 * <p>{@link #reactorSpawn} / {@link #rxSpawn}: the path a Reactor or RxJava user takes instead of
 * the {@link #reactor} / {@link #rxjava} rows, {@code ReactorScopes.spawn} / {@code RxScopes.spawn}
 * of the same {@code subscribeOn} sources into a {@code CountingScope}, then close +
 * {@code syncWait(join())}. Each task completes (and leaves its tracker) on a pool thread, so the
 * composites' {@code synchronized} add and remove are contended by the pool threads, as in a server.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PooledBench {

    @Param({"1000", "100000"})
    int n;

    ExecutorService pool;
    Sender<Void> onPool;
    Sender<Void> fused;
    Sender<Void> onPoolGeneral;
    Sender<Void> onCaller;
    Sender<Void> onCallerGeneral;
    Sender<Void> onCallerFused;
    Mono<Void> mono;
    Completable completable;
    reactor.core.scheduler.Scheduler reactorScheduler;

    @Setup(Level.Trial)
    public void setUp() {
        pool = Executors.newFixedThreadPool(2);
        dev.senders.Scheduler executorScheduler = dev.senders.Schedulers.fromExecutor(pool);
        onPool = Tasks.ATOMIC.startsOn(executorScheduler);
        fused = Tasks.onExecutor(pool);
        dev.senders.Scheduler foreign = executorScheduler::schedule;
        onPoolGeneral = Tasks.ATOMIC.startsOn(foreign);
        java.util.concurrent.Executor caller = Runnable::run;
        dev.senders.Scheduler callerScheduler = dev.senders.Schedulers.fromExecutor(caller);
        dev.senders.Scheduler foreignCaller = callerScheduler::schedule;
        onCaller = Tasks.ATOMIC.startsOn(callerScheduler);
        onCallerGeneral = Tasks.ATOMIC.startsOn(foreignCaller);
        onCallerFused = Tasks.onExecutor(caller);
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

    /** Bare pool.execute of the task + CountDownLatch.countDown, then await. */
    @Benchmark
    public long floor() throws InterruptedException {
        Work.reset();
        CountDownLatch latch = new CountDownLatch(n);
        Runnable r = () -> {
            Work.ATOMIC_INC.run();
            latch.countDown();
        };
        for (int i = 0; i < n; i++) {
            pool.execute(r);
        }
        latch.await();
        Work.check(Work.ATOMIC.get() == n && latch.getCount() == 0, "floor");
        return n;
    }

    /** Scopes.spawn(task.startsOn(fromExecutor(pool)), token), then syncWait(scope.join()). */
    @Benchmark
    public long scope() {
        return spawnAll(onPool, "scope");
    }

    /**
     * Not a peer: {@link #scope} with the executor scheduler wrapped in a foreign {@code Scheduler}
     * (same executor, same {@code schedule()} sender), so {@code startsOn} takes its general path
     * (schedule operation + receivers + env binding) instead of the fused one: the same-run A/B of
     * that fast path.
     */
    @Benchmark
    public long scopeGeneralStartsOn() {
        return spawnAll(onPoolGeneral, "scopeGeneralStartsOn");
    }

    /**
     * Not a peer: the scope with a hand-fused sender whose operation is the executor's Runnable,
     * to separate what the scope costs on a pool from what {@code startsOn} costs.
     */
    @Benchmark
    public long scopeFusedSender() {
        return spawnAll(fused, "scopeFusedSender");
    }

    /**
     * Not a peer: {@link #scope}, {@link #scopeGeneralStartsOn} and {@link #scopeFusedSender} on an
     * executor that runs each task on the calling thread ({@code Runnable::run}): the library's own
     * CPU cost and allocation per task without the pool's hand-off, which dominates (and, on a
     * loaded machine, blurs) the pooled timings.
     */
    @Benchmark
    public long callerRunsScope() {
        return spawnAll(onCaller, "callerRunsScope");
    }

    /** Not a peer: see {@link #callerRunsScope}; {@code startsOn}'s general path. */
    @Benchmark
    public long callerRunsScopeGeneralStartsOn() {
        return spawnAll(onCallerGeneral, "callerRunsScopeGeneralStartsOn");
    }

    /** Not a peer: see {@link #callerRunsScope}; the hand-fused sender. */
    @Benchmark
    public long callerRunsScopeFusedSender() {
        return spawnAll(onCallerFused, "callerRunsScopeFusedSender");
    }

    /** Scopes.spawn(sender, token) N times, then syncWait(scope.join()) and the self-check. */
    private long spawnAll(Sender<Void> sender, String variant) {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            if (!Scopes.spawn(sender, token)) {
                throw new IllegalStateException("spawn refused");
            }
        }
        Senders.syncWait(scope.join());
        Work.check(Work.ATOMIC.get() == n && scope.count() == 0 && scope.state() == ScopeState.JOINED
                && scope.errorCount() == 0, variant);
        return n;
    }

    /** Mono.fromRunnable(task).subscribeOn(fromExecutorService(pool)), held in Disposables.composite(). */
    @Benchmark
    public long reactor() throws InterruptedException {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(new CountDownLatch(n));
        for (int i = 0; i < n; i++) {
            mono.subscribe(new HeldSubscriber(t));
        }
        t.latch.await();
        Work.check(Work.ATOMIC.get() == n && t.composite.size() == 0 && t.error == null, "reactor");
        return n;
    }

    /** Completable.fromRunnable(task).subscribeOn(Schedulers.from(pool)).subscribe(onComplete, onError, composite). */
    @Benchmark
    public long rxjava() throws InterruptedException {
        Work.reset();
        CompositeDisposable cd = new CompositeDisposable();
        CountDownLatch latch = new CountDownLatch(n);
        io.reactivex.rxjava3.functions.Action done = latch::countDown;
        for (int i = 0; i < n; i++) {
            completable.subscribe(done, InlineBench.ON_ERROR, cd);
        }
        latch.await();
        // RxJava calls onComplete before it removes the observer from the composite: wait for the
        // (at most two) removals still in flight on the pool threads.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cd.size() != 0 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        Work.check(Work.ATOMIC.get() == n && cd.size() == 0, "rxjava");
        return n;
    }

    /** The Reactor user's path instead of {@link #reactor}: {@code ReactorScopes.spawn(mono, token)}, {@code CountingScope}. */
    @Benchmark
    public long reactorSpawn() {
        CountingScope scope = new CountingScope();
        InlineBench.spawnAll(mono, scope.getToken(), n);
        return InlineBench.joined(scope, n, true, "reactorSpawn");
    }

    /** The RxJava user's path instead of {@link #rxjava}: {@code RxScopes.spawn(completable, token)}, {@code CountingScope}. */
    @Benchmark
    public long rxSpawn() {
        CountingScope scope = new CountingScope();
        InlineBench.spawnAll(completable, scope.getToken(), n);
        return InlineBench.joined(scope, n, true, "rxSpawn");
    }

    /** CompletableFuture.runAsync(task, pool) kept in an array, then allOf(..).join(). */
    @Benchmark
    public long completableFuture() {
        Work.reset();
        CompletableFuture<?>[] fs = new CompletableFuture<?>[n];
        for (int i = 0; i < n; i++) {
            fs[i] = CompletableFuture.runAsync(Work.ATOMIC_INC, pool);
        }
        CompletableFuture.allOf(fs).join();
        Work.check(Work.ATOMIC.get() == n, "completableFuture");
        return n;
    }
}
