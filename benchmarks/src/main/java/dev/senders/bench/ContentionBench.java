package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.reactor.ReactorScopes;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Contention: two threads spawn N/2 inline tasks each into ONE tracker at the same time, then the
 * tracker is joined/checked. Both threads run inside one invocation (the benchmark thread and one
 * helper thread, released together by a barrier) rather than with {@code @Group}: a scope must be
 * joined after both threads are done, and JMH groups give no per-invocation point where both
 * threads have finished. The barrier + future hand-off costs a few microseconds per invocation,
 * i.e. a few ns/task at N = 1,000 and nothing at N = 100,000 (read that row).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ContentionBench {

    @Param({"1000", "100000"})
    int n;

    ExecutorService helper;
    static final Mono<Void> MONO = Mono.fromRunnable(Work.ATOMIC_INC);
    static final Completable COMPLETABLE = Completable.fromRunnable(Work.ATOMIC_INC);

    @Setup(Level.Trial)
    public void setUp() {
        helper = Executors.newSingleThreadExecutor();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        helper.shutdown();
        Work.check(helper.awaitTermination(10, TimeUnit.SECONDS), "helper terminated");
    }

    private void both(Runnable half) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        Future<?> other = helper.submit(() -> {
            barrier.await();
            half.run();
            return null;
        });
        barrier.await();
        half.run();
        other.get();
    }

    /** Floor: both threads increment and decrement one shared AtomicLong around each task. */
    @Benchmark
    public long floor() throws Exception {
        Work.reset();
        AtomicLong tracker = new AtomicLong();
        int half = n / 2;
        both(() -> {
            for (int i = 0; i < half; i++) {
                tracker.incrementAndGet();
                Work.ATOMIC_INC.run();
                tracker.decrementAndGet();
            }
        });
        Work.check(Work.ATOMIC.get() == 2L * half && tracker.get() == 0, "floor");
        return n;
    }

    @Benchmark
    public long scope() throws Exception {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        int half = n / 2;
        both(() -> {
            for (int i = 0; i < half; i++) {
                if (!Scopes.spawn(Tasks.ATOMIC, token)) {
                    throw new IllegalStateException("spawn refused");
                }
            }
        });
        Senders.syncWait(scope.join());
        Work.check(Work.ATOMIC.get() == 2L * half && scope.count() == 0 && scope.state() == ScopeState.JOINED,
                "scope");
        return n;
    }

    @Benchmark
    public long reactor() throws Exception {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        int half = n / 2;
        both(() -> {
            for (int i = 0; i < half; i++) {
                MONO.subscribe(new HeldSubscriber(t));
            }
        });
        Work.check(Work.ATOMIC.get() == 2L * half && t.composite.size() == 0 && t.error == null, "reactor");
        return n;
    }

    @Benchmark
    public long rxjava() throws Exception {
        Work.reset();
        CompositeDisposable cd = new CompositeDisposable();
        int half = n / 2;
        both(() -> {
            for (int i = 0; i < half; i++) {
                COMPLETABLE.subscribe(InlineBench.NOTHING, InlineBench.ON_ERROR, cd);
            }
        });
        Work.check(Work.ATOMIC.get() == 2L * half && cd.size() == 0, "rxjava");
        return n;
    }
    /**
     * The starter's shared application scope: both threads {@code ReactorScopes.spawn} into one
     * {@code CountingScope} (its count word and its stop source are the contended words), then
     * close + join; the peer is {@link #reactor}, one shared {@code Disposables.composite()}.
     */
    @Benchmark
    public long reactorSpawn() throws Exception {
        Work.reset();
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = scope.getToken();
        int half = n / 2;
        both(() -> {
            for (int i = 0; i < half; i++) {
                if (ReactorScopes.spawn(MONO, token) == ReactorScopes.REFUSED) {
                    throw new IllegalStateException("spawn refused");
                }
            }
        });
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.ATOMIC.get() == 2L * half && scope.count() == 0 && scope.errorCount() == 0, "reactorSpawn");
        return n;
    }

    /** {@link #reactorSpawn} for RxJava: {@code RxScopes.spawn(completable, token)}; the peer is {@link #rxjava}. */
    @Benchmark
    public long rxSpawn() throws Exception {
        Work.reset();
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = scope.getToken();
        int half = n / 2;
        both(() -> {
            for (int i = 0; i < half; i++) {
                if (RxScopes.spawn(COMPLETABLE, token) == RxScopes.REFUSED) {
                    throw new IllegalStateException("spawn refused");
                }
            }
        });
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.ATOMIC.get() == 2L * half && scope.count() == 0 && scope.errorCount() == 0, "rxSpawn");
        return n;
    }
}
