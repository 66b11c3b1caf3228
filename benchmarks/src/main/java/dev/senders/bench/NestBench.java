package dev.senders.bench;

import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
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

/**
 * nest: {@code nest(just(), token).connect(r).start()} against {@code just().connect(r).start()},
 * N times, with a receiver whose {@code setValue} is the task (counter increment). The nest variant
 * then joins the scope. The target is the difference per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NestBench {

    @Param({"1000", "100000"})
    int n;

    static final Sender<Void> JUST = Senders.just();

    static final Receiver<Void> COUNTING = new Receiver<>() {
        @Override
        public void setValue(Void value) {
            Work.INC.run();
        }

        @Override
        public void setError(Throwable error) {
            throw new IllegalStateException(error);
        }

        @Override
        public void setStopped() {
            throw new IllegalStateException("stopped");
        }
    };

    @Benchmark
    public long direct() {
        Work.reset();
        for (int i = 0; i < n; i++) {
            JUST.connect(COUNTING).start();
        }
        Work.check(Work.count == n, "direct");
        return Work.count;
    }

    @Benchmark
    public long nest() {
        Work.reset();
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            Scopes.nest(JUST, token).connect(COUNTING).start();
        }
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && scope.count() == 0 && scope.state() == ScopeState.JOINED, "nest");
        return Work.count;
    }
}
