package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ChildOperation;
import dev.senders.internal.signal.Signals;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code stopWhen(s, token)} (libunifex / stdexec {@code stop_when}, token flavour): the source
 * sees a stop token that fires when either the downstream receiver's token or {@code token}
 * fires. The completion is forwarded, on the thread the source completes on, after both stop
 * callbacks have been deregistered.
 */
final class StopWhen<T> implements Sender<T> {
    /*
     * When the downstream token cannot stop (the common case for spawned work), the source simply
     * sees token in its env: no stop source, no callback (Bound). Otherwise one
     * InplaceStopSource per operation; the operation itself is the callback for both
     * tokens (no lambda per start). Both are registered in start before the source starts,
     * and closed in the completion before it is forwarded (closing waits for a callback running on
     * another thread, so no requestStop runs after completion). The callback fields are
     * written before the source starts, and the source's completion happens after its start.
     */

    private final Sender<? extends T> source;
    private final StopToken token;

    StopWhen(Sender<? extends T> source, StopToken token) {
        this.source = source;
        this.token = token;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (!receiver.env().stopToken().stopPossible()) {
            return new Bound<>(this, receiver);
        }
        return new Op<>(this, receiver);
    }

    /** The downstream cannot stop: the source sees {@code token} itself. */
    private static final class Bound<T> extends ChildOperation<T, T> {
        private final Env env;

        Bound(StopWhen<T> stopWhen, Receiver<? super T> downstream) {
            super(downstream);
            this.env = downstream.env().with(Query.STOP_TOKEN, stopWhen.token);
            connectChild(stopWhen.source);
        }

        @Override
        protected String algorithm() {
            return "stopWhen";
        }

        @Override
        public Env env() {
            return env;
        }
    }

    private static final class Op<T> extends ChildOperation<T, T> implements Runnable {
        private final StopWhen<T> stopWhen;
        private final InplaceStopSource stop = new InplaceStopSource();
        private final Env env;
        private @Nullable StopCallback fromDownstream;
        private @Nullable StopCallback fromToken;

        Op(StopWhen<T> stopWhen, Receiver<? super T> downstream) {
            super(downstream);
            this.stopWhen = stopWhen;
            this.env = downstream.env().with(Query.STOP_TOKEN, stop.token());
            connectChild(stopWhen.source);
        }

        @Override
        public void start() {
            if (!beginStart()) {
                return;
            }
            fromDownstream = downstream.env().stopToken().onStop(this);
            fromToken = stopWhen.token.onStop(this);
            startChild();
        }

        /** Either token fired. */
        @Override
        public void run() {
            stop.requestStop();
        }

        private void release() {
            StopCallback a = fromDownstream, b = fromToken;
            if (a != null) {
                a.close();
            }
            if (b != null) {
                b.close();
            }
        }

        @Override
        protected String algorithm() {
            return "stopWhen";
        }

        @Override
        public Env env() {
            return env;
        }

        @Override
        protected void onValue(@Nullable T value) {
            release();
            Signals.setValue(downstream, value);
        }

        @Override
        protected void onError(Throwable error) {
            release();
            Signals.setError(downstream, error);
        }

        @Override
        protected void onStopped() {
            release();
            Signals.setStopped(downstream);
        }
    }
}
