package dev.senders.bench;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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

/**
 * What observability costs on the spawn path: N inline tasks spawned into a
 * {@code SimpleCountingScope} and one join, per invocation (the score is per invocation; divide
 * by N for a task).
 *
 * <ul>
 * <li>{@code before}: the spawn path as it was before names and the dump existed, rebuilt here
 *     from the public token API ({@code tryAssociate}, the 24-byte guarded receiver,
 *     {@code connect}, {@code start}, {@code dissociate}): the baseline in the same run.
 * <li>{@code unnamedScope}: {@code Scopes.spawn} today, capture off: the baseline plus the check
 *     for named work, debug capture and JFR work events.
 * <li>{@code namedScope}: the same into a scope given a name.
 * <li>{@code namedWork}: every task named ({@code Scopes.named}): each is tracked on the scope's
 *     outstanding list.
 * <li>{@code captureOn}: debug capture on (set in this benchmark's own fork): every task tracked,
 *     with its spawn site (a stack walk).
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ObserveBench {

    @Param({"1000"})
    int n;

    /** In a holder, so that the other benchmarks also run against a sender-core without {@code Scopes.named}. */
    static final class Named {
        static final Sender<Void> TASK = Scopes.named(Tasks.INLINE, "task");
    }

    private long run(SimpleCountingScope scope, Sender<Void> task, String what) {
        Work.reset();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            if (!Scopes.spawn(task, token)) {
                throw new IllegalStateException("spawn refused");
            }
        }
        return join(scope, what);
    }

    private long join(SimpleCountingScope scope, String what) {
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.count() == 0 && scope.state() == ScopeState.JOINED, what);
        return Work.count;
    }

    @Benchmark
    public long before() {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            if (!PreviousSpawn.spawn(Tasks.INLINE, token)) {
                throw new IllegalStateException("spawn refused");
            }
        }
        return join(scope, "before");
    }

    @Benchmark
    public long unnamedScope() {
        return run(new SimpleCountingScope(), Tasks.INLINE, "unnamedScope");
    }

    @Benchmark
    public long namedScope() {
        return run(new SimpleCountingScope("bench"), Tasks.INLINE, "namedScope");
    }

    @Benchmark
    public long namedWork() {
        return run(new SimpleCountingScope("bench"), Named.TASK, "namedWork");
    }

    /** Debug capture on for this benchmark's fork only. */
    @State(Scope.Benchmark)
    public static class Capture {
        @Setup(Level.Trial)
        public void on() {
            Hooks.enableDebugCapture();
        }

        @TearDown(Level.Trial)
        public void off() {
            Hooks.disableDebugCapture();
        }
    }

    @Benchmark
    public long captureOn(Capture capture) {
        return run(new SimpleCountingScope(), Tasks.INLINE, "captureOn");
    }

    /**
     * {@code Scopes.spawn(sender, token)} as it was before the observability work, for a scope
     * without a stop source: associate, connect to a guarded receiver, start unless the sender
     * completed during connect, dissociate at the (first) completion.
     */
    static final class PreviousSpawn implements Receiver<Object> {
        private static final int PENDING = 0, COMPLETED = 1, EARLY = 2;

        final AsyncScopeToken token;
        private volatile int guard;
        private Thread connecting;

        PreviousSpawn(AsyncScopeToken token) {
            this.token = token;
            this.connecting = Thread.currentThread();
        }

        static boolean spawn(Sender<?> sender, AsyncScopeToken token) {
            if (!token.tryAssociate()) {
                return false;
            }
            PreviousSpawn r = new PreviousSpawn(token);
            OperationState op;
            try {
                op = sender.connect(r);
            } catch (Throwable t) {
                token.dissociate();
                throw t;
            }
            r.connecting = null;
            if (r.guard != EARLY) {
                op.start();
            } else {
                token.dissociate();
            }
            return true;
        }

        private boolean enter() {
            if (connecting == Thread.currentThread()) {
                GUARD.compareAndSet(this, PENDING, EARLY);
                return false;
            }
            return GUARD.compareAndSet(this, PENDING, COMPLETED);
        }

        @Override
        public void setValue(Object value) {
            if (enter()) {
                token.dissociate();
            }
        }

        @Override
        public void setError(Throwable error) {
            if (enter()) {
                token.dissociate();
            }
        }

        @Override
        public void setStopped() {
            if (enter()) {
                token.dissociate();
            }
        }

        @Override
        public Env env() {
            return Env.empty();
        }

        private static final VarHandle GUARD;

        static {
            try {
                GUARD = MethodHandles.lookup().findVarHandle(PreviousSpawn.class, "guard", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
