package dev.senders.bench;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * Eager work whose result is consumed later: {@code spawnFuture} + connect/start of the returned
 * sender, against {@code CompletableFuture.supplyAsync(s, Runnable::run).join()} and
 * {@code Mono.fromSupplier(s).toFuture().join()}. All three run the work inline (no thread hop),
 * so what is measured is the future machinery; the scope variant also joins its scope at the end.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SpawnFutureBench {

    @Param({"1000", "100000"})
    int n;

    static long consumed;

    static final Supplier<Boolean> SUPPLIER = () -> {
        Work.INC.run();
        return Boolean.TRUE;
    };
    static final Mono<Boolean> MONO = Mono.fromSupplier(SUPPLIER);

    static final Receiver<Boolean> CONSUMER = new Receiver<>() {
        @Override
        public void setValue(Boolean value) {
            if (value) {
                consumed++;
            }
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
    public long spawnFuture() {
        Work.reset();
        consumed = 0;
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            Scopes.spawnFuture(Tasks.SUPPLY, token).connect(CONSUMER).start();
        }
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && consumed == n && scope.count() == 0 && scope.state() == ScopeState.JOINED,
                "spawnFuture");
        return consumed;
    }

    /**
     * Work that completes only when told to: {@code spawnFuture} returns before it ends, so the
     * future is the tracked (leak-checked) kind and its consumer is started before the result.
     * The operation holds only the receiver, like {@link Tasks}' operations.
     */
    static final class Deferred implements Sender<Boolean>, OperationState {
        private Receiver<? super Boolean> receiver;

        @Override
        public OperationState connect(Receiver<? super Boolean> r) {
            receiver = r;
            return this;
        }

        @Override
        public void start() {
        }

        void complete() {
            Work.INC.run();
            receiver.setValue(Boolean.TRUE);
        }
    }

    /** As {@link #spawnFuture}, but the work ends after the consumer started (a tracked future). */
    @Benchmark
    public long spawnFutureDeferred() {
        Work.reset();
        consumed = 0;
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        for (int i = 0; i < n; i++) {
            Deferred work = new Deferred();
            Scopes.spawnFuture(work, token).connect(CONSUMER).start();
            work.complete();
        }
        Senders.syncWait(scope.join());
        Work.check(Work.count == n && consumed == n && scope.count() == 0 && scope.state() == ScopeState.JOINED,
                "spawnFutureDeferred");
        return consumed;
    }

    @Benchmark
    public long completableFuture() {
        Work.reset();
        consumed = 0;
        for (int i = 0; i < n; i++) {
            if (CompletableFuture.supplyAsync(SUPPLIER, InlineBench.INLINE).join()) {
                consumed++;
            }
        }
        Work.check(Work.count == n && consumed == n, "completableFuture");
        return consumed;
    }

    @Benchmark
    public long monoToFuture() {
        Work.reset();
        consumed = 0;
        for (int i = 0; i < n; i++) {
            if (MONO.toFuture().join()) {
                consumed++;
            }
        }
        Work.check(Work.count == n && consumed == n, "monoToFuture");
        return consumed;
    }
}
