package dev.senders.spring.boot;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Work spawned through a {@link ScopeSpawner}: the same sender, run with the spawning thread's
 * context installed, and counted by how it ends.
 *
 * <ul>
 * <li>{@code connect} and {@code start} of the source run with the captured context installed;
 *     so does each completion signal forwarded downstream (the scope's receiver, whose error
 *     handler logs a failure with the request's MDC).
 * <li>{@code setValue} counts completed, {@code setStopped} counts stopped, before forwarding, so
 *     the counters are up to date when the scope's join completes. Errors are counted by the scope
 *     itself ({@code errorCount()}), not here.
 * <li>Signals pass through unchanged, on the thread that sent them; the downstream env (stop token,
 *     scheduler, queries) is the source's env. A second completion is forwarded as is: the scope's
 *     receiver reports it as a protocol violation.
 * </ul>
 * Multi-shot if the source is: each {@code connect} is an independent operation with the same
 * captured context.
 */
final class ObservedWork<T> implements Sender<T> {

    private final Sender<T> source;
    private final SpawnCounters counters;
    private final SpawnContext.Snapshot context;

    ObservedWork(Sender<T> source, SpawnCounters counters, SpawnContext.Snapshot context) {
        this.source = Objects.requireNonNull(source, "sender");
        this.counters = counters;
        this.context = context;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        Operation<T> op = new Operation<>(receiver, counters, context);
        SpawnContext.Restored restored = context.restore();
        try {
            op.upstream = source.connect(op);
        } finally {
            restored.close();
        }
        return op;
    }

    @Override
    public String toString() {
        return "ObservedWork[" + source + "]";
    }

    /** The operation and the source's receiver in one object. */
    static final class Operation<T> implements OperationState, Receiver<T> {

        private final Receiver<? super T> downstream;
        private final SpawnCounters counters;
        private final SpawnContext.Snapshot context;
        /** Written by connect before the operation is handed out; read by start on the same hand-off. */
        @SuppressWarnings("NullAway.Init") // connect sets it before returning the operation
        OperationState upstream;

        Operation(Receiver<? super T> downstream, SpawnCounters counters, SpawnContext.Snapshot context) {
            this.downstream = downstream;
            this.counters = counters;
            this.context = context;
        }

        @Override
        public void start() {
            SpawnContext.Restored restored = context.restore();
            try {
                upstream.start();
            } finally {
                restored.close();
            }
        }

        @Override
        public void setValue(@Nullable T value) {
            counters.completed.increment();
            SpawnContext.Restored restored = context.restore();
            try {
                downstream.setValue(value);
            } finally {
                restored.close();
            }
        }

        @Override
        public void setError(Throwable error) {
            SpawnContext.Restored restored = context.restore();
            try {
                downstream.setError(error);
            } finally {
                restored.close();
            }
        }

        @Override
        public void setStopped() {
            counters.stopped.increment();
            SpawnContext.Restored restored = context.restore();
            try {
                downstream.setStopped();
            } finally {
                restored.close();
            }
        }

        @Override
        public Env env() {
            return downstream.env();
        }
    }
}
