package dev.senders.spring.boot;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.signal.Connect;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Work spawned through a {@link ScopeSpawner}: the same sender, run with the spawning thread's
 * context installed, observed ({@link WorkObservation}) and counted by how it ends.
 *
 * <ul>
 * <li>{@code connect} and {@code start} of the source run with the captured context installed;
 *     so does each completion signal forwarded downstream (the scope's receiver, whose error
 *     handler logs a failure with the request's MDC).
 * <li>{@code setValue} counts completed, {@code setError} failed, {@code setStopped} stopped,
 *     before forwarding, so the counters are up to date when the scope's join completes. (The
 *     scope counts the error too, in its {@code errorCount()} of all its work.)
 * <li>{@code connect} starts the prepared observation (the scope accepted the work) and makes it
 *     current, inside the installed context, around the source's connect and start; each
 *     completion ends it with its outcome before forwarding, so it has ended when the join
 *     completes. A second completion does not end it again.
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
    private final WorkObservation.Pending observation;

    ObservedWork(Sender<T> source, SpawnCounters counters, SpawnContext.Snapshot context,
            WorkObservation.Pending observation) {
        this.source = Objects.requireNonNull(source, "sender");
        this.counters = counters;
        this.context = context;
        this.observation = observation;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        SpawnContext.Restored restored = context.restore();
        try {
            Operation<T> op = new Operation<>(receiver, counters, context, observation.start());
            SpawnContext.Restored current = op.observation.open();
            try {
                op.upstream = Connect.checked(source, op); // a broken source is named, as on every path
            } catch (RuntimeException | Error e) {
                op.end(WorkObservation.Outcome.ERROR, e);   // no operation to complete it: the caller gets e
                throw e;
            } finally {
                current.close();
            }
            return op;
        } finally {
            restored.close();
        }
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
        final WorkObservation.Running observation;
        /** Written by connect before the operation is handed out; read by start on the same hand-off. */
        @SuppressWarnings("NullAway.Init") // connect sets it before returning the operation
        OperationState upstream;
        /**
         * Whether the observation was ended. A plain field: the protocol orders a source's
         * completions; a racing second one is the source's violation, which the scope reports.
         */
        private boolean ended;

        Operation(Receiver<? super T> downstream, SpawnCounters counters, SpawnContext.Snapshot context,
                WorkObservation.Running observation) {
            this.downstream = downstream;
            this.counters = counters;
            this.context = context;
            this.observation = observation;
        }

        void end(WorkObservation.Outcome outcome, @Nullable Throwable error) {
            if (!ended) {
                ended = true;
                observation.end(outcome, error);
            }
        }

        @Override
        public void start() {
            SpawnContext.Restored restored = context.restore();
            try {
                SpawnContext.Restored current = observation.open();
                try {
                    upstream.start();
                } finally {
                    current.close();
                }
            } finally {
                restored.close();
            }
        }

        @Override
        public void setValue(@Nullable T value) {
            counters.completed.increment();
            end(WorkObservation.Outcome.VALUE, null);
            SpawnContext.Restored restored = context.restore();
            try {
                downstream.setValue(value);
            } finally {
                restored.close();
            }
        }

        @Override
        public void setError(Throwable error) {
            counters.failed.increment();
            end(WorkObservation.Outcome.ERROR, error);
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
            end(WorkObservation.Outcome.STOPPED, null);
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
