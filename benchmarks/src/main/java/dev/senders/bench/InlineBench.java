package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import io.reactivex.rxjava3.functions.Action;
import io.reactivex.rxjava3.functions.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Inline fire-and-forget, tracked and joined: N tasks that complete synchronously inside the
 * call that starts them, each tracked by the library's tracker until it ends, then one join.
 * The score is per invocation (N tasks); the renderer divides by N.
 *
 * <p>Two comparisons live here, each beside its peers: the core one ({@link #scope}, a sender
 * spawned with {@code Scopes.spawn}, against the untracked {@link #floor}), and the path a Reactor
 * or RxJava user takes into the library ({@link #reactorSpawn}: {@code ReactorScopes.spawn(mono,
 * token)} instead of {@link #reactor}'s composite; {@link #rxSpawn}: {@code RxScopes.spawn(completable,
 * token)} instead of {@link #rxjava}'s {@code CompositeDisposable}), on the same sources; the
 * {@code *Async} rows are the same pairs on async-shaped sources ({@link #ASYNC_MONO},
 * {@link #ASYNC_COMPLETABLE}), which take the adapters' general path (subscribed, not called).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class InlineBench {

    @Param({"1000", "100000"})
    int n;

    static final Executor INLINE = Runnable::run;
    static final Mono<Void> MONO = Mono.fromRunnable(Work.INC);
    static final Completable COMPLETABLE = Completable.fromRunnable(Work.INC);
    /**
     * Async-shaped: {@link #MONO} behind {@code hide()}, so it is neither {@code Callable} nor
     * fuseable and every subscriber takes its general path (onSubscribe, request, then the signal),
     * as with a source that completes on another thread; it still completes inside subscribe, so
     * the rows measure the path, not a thread hop.
     */
    static final Mono<Void> ASYNC_MONO = MONO.hide();
    /** Async-shaped: {@link #COMPLETABLE} behind {@code hide()} (see {@link #ASYNC_MONO}). */
    static final Completable ASYNC_COMPLETABLE = COMPLETABLE.hide();
    static final Action NOTHING = () -> { };
    static final Consumer<Throwable> ON_ERROR = e -> { throw new IllegalStateException(e); };

    private final AtomicLong tracker = new AtomicLong();

    /** The floor: one AtomicLong increment before and one decrement after each task, no tracking object. */
    @Benchmark
    public long floor() {
        Work.reset();
        AtomicLong t = tracker;
        for (int i = 0; i < n; i++) {
            t.incrementAndGet();
            Work.INC.run();
            t.decrementAndGet();
        }
        Work.check(Work.count == n && t.get() == 0, "floor");
        return Work.count;
    }

    /**
     * Not a peer: the floor plus the least that exactly-once tracking of a task costs, a fresh
     * per-task object (16 bytes) whose flag is claimed by one CAS at completion. Any tracker that
     * must survive a task completing twice from two threads (decision S2 in docs/decisions.md)
     * needs that one more locked instruction per task; the object escapes, as the receiver of a
     * spawned operation does.
     */
    @Benchmark
    public long floorGuarded() {
        Work.reset();
        AtomicLong t = tracker;
        for (int i = 0; i < n; i++) {
            t.incrementAndGet();
            Guard g = new Guard();
            lastGuard = g;
            Work.INC.run();
            if (!Guard.DONE.compareAndSet(g, 0, 1)) {
                throw new IllegalStateException("completed twice");
            }
            t.decrementAndGet();
        }
        Work.check(Work.count == n && t.get() == 0, "floorGuarded");
        return Work.count;
    }

    /** Where {@link #floorGuarded} lets each guard escape, so that its allocation and CAS stay. */
    Guard lastGuard;

    static final class Guard {
        volatile int done;

        static final java.lang.invoke.VarHandle DONE;

        static {
            try {
                DONE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Guard.class, "done", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** Scopes.spawn of an inline sender into a SimpleCountingScope, then syncWait(scope.join()). */
    @Benchmark
    public long scope() {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            if (!Scopes.spawn(Tasks.INLINE, token)) {
                throw new IllegalStateException("spawn refused");
            }
        }
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.count() == 0 && scope.state() == ScopeState.JOINED
                && scope.errorCount() == 0, "scope");
        return Work.count;
    }

    /** Mono.fromRunnable subscribed with a subscriber held in Disposables.composite() until it terminates. */
    @Benchmark
    public long reactor() {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        for (int i = 0; i < n; i++) {
            MONO.subscribe(new HeldSubscriber(t));
        }
        Work.check(Work.count == n && t.composite.size() == 0 && t.error == null, "reactor");
        return Work.count;
    }

    /**
     * {@link #reactor} on {@link #ASYNC_MONO}: the composite-tracked subscribe of a source that
     * takes every subscriber's general path, the peer of {@link #reactorSpawnAsync}.
     */
    @Benchmark
    public long reactorAsync() {
        Work.reset();
        HeldSubscriber.Tracker t = new HeldSubscriber.Tracker(null);
        for (int i = 0; i < n; i++) {
            ASYNC_MONO.subscribe(new HeldSubscriber(t));
        }
        Work.check(Work.count == n && t.composite.size() == 0 && t.error == null, "reactorAsync");
        return Work.count;
    }

    /** Completable.fromRunnable().subscribe(onComplete, onError, compositeDisposable). */
    @Benchmark
    public long rxjava() {
        Work.reset();
        CompositeDisposable cd = new CompositeDisposable();
        for (int i = 0; i < n; i++) {
            COMPLETABLE.subscribe(NOTHING, ON_ERROR, cd);
        }
        Work.check(Work.count == n && cd.size() == 0, "rxjava");
        return Work.count;
    }

    /** {@link #rxjava} on {@link #ASYNC_COMPLETABLE}, the peer of {@link #rxSpawnAsync}. */
    @Benchmark
    public long rxjavaAsync() {
        Work.reset();
        CompositeDisposable cd = new CompositeDisposable();
        for (int i = 0; i < n; i++) {
            ASYNC_COMPLETABLE.subscribe(NOTHING, ON_ERROR, cd);
        }
        Work.check(Work.count == n && cd.size() == 0, "rxjavaAsync");
        return Work.count;
    }

    /**
     * The Reactor user's path instead of {@link #reactor}: {@code ReactorScopes.spawn(MONO, token)}
     * into a {@code CountingScope} (like the composite, it can stop everything it tracks:
     * {@code requestStop()} as {@code dispose()}), then close + {@code syncWait(join())}.
     */
    @Benchmark
    public long reactorSpawn() {
        CountingScope scope = new CountingScope();
        spawnAll(MONO, scope.getToken(), n);
        return joined(scope, n, false, "reactorSpawn");
    }

    /** {@link #reactorSpawn} into a {@code SimpleCountingScope} (no stop source: nothing to stop). */
    @Benchmark
    public long reactorSpawnSimple() {
        SimpleCountingScope scope = new SimpleCountingScope();
        spawnAll(MONO, scope.getToken(), n);
        return joined(scope, n, "reactorSpawnSimple");
    }

    /**
     * {@link #reactorSpawn} on {@link #ASYNC_MONO}: the general path of {@code ReactorScopes.spawn}
     * (subscribed, not called), against {@link #reactorAsync}.
     */
    @Benchmark
    public long reactorSpawnAsync() {
        CountingScope scope = new CountingScope();
        spawnAll(ASYNC_MONO, scope.getToken(), n);
        return joined(scope, n, false, "reactorSpawnAsync");
    }

    /** The RxJava user's path instead of {@link #rxjava}: {@code RxScopes.spawn(COMPLETABLE, token)}, {@code CountingScope}. */
    @Benchmark
    public long rxSpawn() {
        CountingScope scope = new CountingScope();
        spawnAll(COMPLETABLE, scope.getToken(), n);
        return joined(scope, n, false, "rxSpawn");
    }

    /** {@link #rxSpawn} into a {@code SimpleCountingScope}. */
    @Benchmark
    public long rxSpawnSimple() {
        SimpleCountingScope scope = new SimpleCountingScope();
        spawnAll(COMPLETABLE, scope.getToken(), n);
        return joined(scope, n, "rxSpawnSimple");
    }

    /** {@link #rxSpawn} on {@link #ASYNC_COMPLETABLE}, against {@link #rxjavaAsync}. */
    @Benchmark
    public long rxSpawnAsync() {
        CountingScope scope = new CountingScope();
        spawnAll(ASYNC_COMPLETABLE, scope.getToken(), n);
        return joined(scope, n, false, "rxSpawnAsync");
    }

    /** Resets the counters, then {@code ReactorScopes.spawn(mono, token)} n times; a refusal fails the run. */
    static void spawnAll(Mono<?> mono, AsyncScopeToken token, int n) {
        Work.reset();
        for (int i = 0; i < n; i++) {
            if (ReactorScopes.spawn(mono, token) == ReactorScopes.REFUSED) {
                throw new IllegalStateException("spawn refused");
            }
        }
    }

    /** Resets the counters, then {@code RxScopes.spawn(completable, token)} n times; a refusal fails the run. */
    static void spawnAll(Completable completable, AsyncScopeToken token, int n) {
        Work.reset();
        for (int i = 0; i < n; i++) {
            if (RxScopes.spawn(completable, token) == RxScopes.REFUSED) {
                throw new IllegalStateException("spawn refused");
            }
        }
    }

    /**
     * Closes and joins the scope of an adapter spawn row, then its self-check: all n tasks ran
     * ({@link Work#ATOMIC} when they ran on a pool, else {@link Work#count}), the scope joined, no error.
     */
    static long joined(CountingScope scope, int n, boolean atomic, String variant) {
        scope.close();
        Senders.syncWait(scope.join());
        long ran = atomic ? Work.ATOMIC.get() : Work.count;
        Work.check(ran == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0, variant);
        return ran;
    }

    /** {@link #joined(CountingScope, int, boolean, String)} for a {@code SimpleCountingScope} (inline tasks). */
    static long joined(SimpleCountingScope scope, int n, String variant) {
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.state() == ScopeState.JOINED && scope.errorCount() == 0, variant);
        return Work.count;
    }

    /** CompletableFuture.runAsync(task, Runnable::run) kept in an array, then allOf(..).join(). */
    @Benchmark
    public long completableFuture() {
        Work.reset();
        CompletableFuture<?>[] fs = new CompletableFuture<?>[n];
        for (int i = 0; i < n; i++) {
            fs[i] = CompletableFuture.runAsync(Work.INC, INLINE);
        }
        CompletableFuture.allOf(fs).join();
        Work.check(Work.count == n, "completableFuture");
        return Work.count;
    }
}
