package dev.senders.bench;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * The fixed cost every N-task invocation of the scope variants pays once: create a
 * {@code SimpleCountingScope}, spawn one inline task, {@code syncWait(scope.join())}. Divided by
 * N it is the gap between the scope rows at N = 1,000 and N = 100,000. (No {@code n}: the
 * renderer reports it per operation.)
 *
 * <p>The lifecycle a composite user replaces, without work: {@code createCloseJoin} (a scope
 * created, closed and joined with {@code syncWait(join())}) and {@code countingCreateCloseJoin}
 * (the same for a {@code CountingScope}, which can stop its work as a composite can dispose it),
 * against {@code compositeCreateDispose} ({@code Disposables.composite()} + {@code dispose()}) and
 * {@code rxCompositeCreateDispose} ({@code new CompositeDisposable()} + {@code dispose()}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ScopeLifecycleBench {

    @Benchmark
    public long createSpawnOneJoin() {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        dev.senders.scope.Scopes.spawn(Tasks.INLINE, scope.getToken());
        Senders.syncWait(scope.join());
        Work.check(Work.count == 1 && scope.state() == ScopeState.JOINED, "lifecycle");
        return Work.count;
    }

    @Benchmark
    public Object createCloseJoin() {
        SimpleCountingScope scope = new SimpleCountingScope();
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(scope.state() == ScopeState.JOINED, "createCloseJoin");
        return scope;
    }

    @Benchmark
    public Object countingCreateCloseJoin() {
        CountingScope scope = new CountingScope();
        scope.close();
        Senders.syncWait(scope.join());
        Work.check(scope.state() == ScopeState.JOINED, "countingCreateCloseJoin");
        return scope;
    }

    @Benchmark
    public Object compositeCreateDispose() {
        Disposable.Composite c = Disposables.composite();
        c.dispose();
        Work.check(c.isDisposed(), "compositeCreateDispose");
        return c;
    }

    @Benchmark
    public Object rxCompositeCreateDispose() {
        CompositeDisposable c = new CompositeDisposable();
        c.dispose();
        Work.check(c.isDisposed(), "rxCompositeCreateDispose");
        return c;
    }
}
