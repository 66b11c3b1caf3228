package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.reactor.ScheduledTaskTracking;
import dev.senders.rxjava3.RxScheduledTaskTracking;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.core.Completable;
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
import reactor.core.scheduler.Schedulers;

/**
 * What the scheduler hooks ({@code ScheduledTaskTracking}, {@code RxScheduledTaskTracking}) cost,
 * {@code hooks=off} against {@code hooks=on}:
 * <ul>
 * <li>{@code reactorSpawn}, {@code rxSpawn}: {@link InlineBench}'s spawn rows (n spawns of a
 *     synchronous source that schedules nothing, into a {@code CountingScope}, then its join):
 *     with the hooks on, each spawn sets and restores its thread's current work;
 * <li>{@code reactorTask}, {@code rxTask}: one task scheduled on a pool and waited for, not spawned
 *     ({@code Mono.fromRunnable(r).subscribeOn(Schedulers.parallel()).block()}, RxJava's
 *     {@code subscribeOn(computation()).blockingAwait()}): the hook looks for a current work and
 *     finds none;
 * <li>{@code reactorSpawnedTask}, {@code rxSpawnedTask}: the same source spawned into a long-lived
 *     scope, waited for with {@code whenIdle()}: with the hooks on, the task is wrapped, counted
 *     on its work while it runs, and the work's release waits for it.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ScheduledTaskTrackingBench {

    @Param({"off", "on"})
    String hooks;

    @Param({"1000"})
    int n;

    static final Mono<Void> ON_POOL = Mono.fromRunnable(Work.ATOMIC_INC).subscribeOn(Schedulers.parallel()).then();
    static final Completable RX_ON_POOL = Completable.fromRunnable(Work.ATOMIC_INC)
            .subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.computation());

    private reactor.core.Disposable reactorHook;
    private io.reactivex.rxjava3.disposables.Disposable rxHook;
    private CountingScope scope;

    @Setup(Level.Trial)
    public void setUp() {
        if (hooks.equals("on")) {
            reactorHook = ScheduledTaskTracking.install();
            rxHook = RxScheduledTaskTracking.install();
        }
        scope = new CountingScope();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scope.close();
        Senders.syncWait(scope.join());
        if (reactorHook != null) {
            reactorHook.dispose();
            rxHook.dispose();
        }
    }

    /** {@link InlineBench#reactorSpawn} (per spawn: divide by n). */
    @Benchmark
    public long reactorSpawn() {
        CountingScope s = new CountingScope();
        InlineBench.spawnAll(InlineBench.MONO, s.getToken(), n);
        return InlineBench.joined(s, n, false, "reactorSpawn");
    }

    /** {@link InlineBench#rxSpawn} (per spawn: divide by n). */
    @Benchmark
    public long rxSpawn() {
        CountingScope s = new CountingScope();
        InlineBench.spawnAll(InlineBench.COMPLETABLE, s.getToken(), n);
        return InlineBench.joined(s, n, false, "rxSpawn");
    }

    /** One task on Reactor's parallel scheduler, not spawned, waited for. */
    @Benchmark
    public Object reactorTask() {
        return ON_POOL.block();
    }

    /** One task on RxJava's computation scheduler, not spawned, waited for. */
    @Benchmark
    public Object rxTask() {
        RX_ON_POOL.blockingAwait();
        return RX_ON_POOL;
    }

    /** The task spawned into the scope, waited for until the scope is idle (its release). */
    @Benchmark
    public Object reactorSpawnedTask() {
        ReactorScopes.spawn(ON_POOL, scope.getToken());
        return Senders.syncWait(scope.whenIdle());
    }

    /** The RxJava task spawned into the scope, waited for until the scope is idle. */
    @Benchmark
    public Object rxSpawnedTask() {
        RxScopes.spawn(RX_ON_POOL, scope.getToken());
        return Senders.syncWait(scope.whenIdle());
    }
}
