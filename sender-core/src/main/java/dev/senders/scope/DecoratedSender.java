package dev.senders.scope;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.signal.Connect;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Work as a {@link DecoratingToken} hands it to the scope: the same sender, decorated when it is
 * connected ({@link SpawnDecorator#decorate}, on the connecting thread), run with its
 * {@link SpawnDecorator.Decoration} installed and told how it ended.
 *
 * <ul>
 * <li>The source's {@code connect} and {@code start}, and each completion signal forwarded
 *     downstream (the scope's receiver, whose error handler logs a failure), run with the
 *     decoration installed, on the thread doing them.
 * <li>Each completion first ends the decoration with its outcome, outside the installation, then
 *     forwards the signal: the decoration has ended when the scope is told. A second completion
 *     does not end it again; it is forwarded as is (the scope's receiver reports it). A
 *     {@code connect} that throws ends it with {@code ERROR} and the exception propagates.
 * <li>Signals pass through unchanged, on the thread that sent them; the source's env is the
 *     downstream's.
 * </ul>
 * Multi-shot if the source is: each {@code connect} is an independent operation with a
 * decoration of its own.
 */
final class DecoratedSender<T> implements Sender<T> {

    private final Sender<T> source;
    private final SpawnDecorator decorator;
    private final String scopeName;
    private final @Nullable String workName;

    DecoratedSender(Sender<T> source, SpawnDecorator decorator, String scopeName, @Nullable String workName) {
        this.source = source;
        this.decorator = decorator;
        this.scopeName = scopeName;
        this.workName = workName;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        SpawnDecorator.Decoration decoration = decorator.decorate(scopeName, workName);
        Operation<T> op = new Operation<>(receiver, decoration);
        SpawnDecorator.Installed installed = decoration.install();
        try {
            op.upstream = Connect.checked(source, op); // a broken source is named, as on every path
        } catch (RuntimeException | Error e) {
            installed.close();
            op.end(SpawnDecorator.Outcome.ERROR, e); // no operation to complete it: the caller gets e
            throw e;
        }
        installed.close();
        return op;
    }

    @Override
    public String toString() {
        return "decorated(" + source + ")";
    }

    /** The operation and the source's receiver in one object. */
    static final class Operation<T> implements OperationState, Receiver<T>, QueuedWork {

        private final Receiver<? super T> downstream;
        private final SpawnDecorator.Decoration decoration;
        /** Written by connect before the operation is handed out; read by start after that hand-off. */
        @SuppressWarnings("NullAway.Init") // connect sets it before returning the operation
        OperationState upstream;
        /**
         * Whether the decoration was ended. A plain field: the protocol orders a source's
         * completions; a racing second one is the source's violation, which the scope reports.
         */
        private boolean ended;

        Operation(Receiver<? super T> downstream, SpawnDecorator.Decoration decoration) {
            this.downstream = downstream;
            this.decoration = decoration;
        }

        @Override
        public boolean queued() {
            OperationState up = upstream;
            return up instanceof QueuedWork && ((QueuedWork) up).queued();
        }

        void end(SpawnDecorator.Outcome outcome, @Nullable Throwable error) {
            if (!ended) {
                ended = true;
                decoration.end(outcome, error);
            }
        }

        @Override
        public void start() {
            SpawnDecorator.Installed installed = decoration.install();
            try {
                upstream.start();
            } finally {
                installed.close();
            }
        }

        @Override
        public void setValue(@Nullable T value) {
            end(SpawnDecorator.Outcome.VALUE, null);
            SpawnDecorator.Installed installed = decoration.install();
            try {
                downstream.setValue(value);
            } finally {
                installed.close();
            }
        }

        @Override
        public void setError(Throwable error) {
            end(SpawnDecorator.Outcome.ERROR, error);
            SpawnDecorator.Installed installed = decoration.install();
            try {
                downstream.setError(error);
            } finally {
                installed.close();
            }
        }

        @Override
        public void setStopped() {
            end(SpawnDecorator.Outcome.STOPPED, null);
            SpawnDecorator.Installed installed = decoration.install();
            try {
                downstream.setStopped();
            } finally {
                installed.close();
            }
        }

        @Override
        public Env env() {
            return downstream.env();
        }
    }
}
