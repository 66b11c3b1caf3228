package dev.senders;

import dev.senders.internal.Signals;
import java.util.Objects;

/**
 * {@code stopWhen(s, token)} (libunifex / stdexec {@code stop_when}, token flavour): the source
 * sees a stop token that fires when either the downstream receiver's token or {@code token}
 * fires. The completion is forwarded, on the thread the source completes on, after both stop
 * callbacks have been deregistered.
 *
 * <h2>Implementation notes</h2>
 * One {@link InplaceStopSource} per operation; both callbacks are registered in {@code start}
 * before the source starts, and closed in the completion before it is forwarded (closing waits
 * for a callback running on another thread, so no {@code requestStop} runs after completion).
 * The callback fields are written before the source starts, and the source's completion
 * happens after its start.
 */
final class StopWhen<T> implements Sender<T> {

    private final Sender<? extends T> source;
    private final StopToken token;

    StopWhen(Sender<? extends T> source, StopToken token) {
        this.source = source;
        this.token = token;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Op<>(this, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op<T> extends GuardedReceiver<T> implements OperationState {
        private final StopWhen<T> stopWhen;
        private final Receiver<? super T> downstream;
        private final InplaceStopSource stop = new InplaceStopSource();
        private final Env env;
        private final OperationState child;
        private StopCallback fromDownstream;
        private StopCallback fromToken;

        Op(StopWhen<T> stopWhen, Receiver<? super T> downstream) {
            this.stopWhen = stopWhen;
            this.downstream = downstream;
            this.env = downstream.env().with(Query.STOP_TOKEN, stop.token());
            this.child = stopWhen.source.connect(this);
        }

        @Override
        public void start() {
            if (!beginStart()) {
                return;
            }
            fromDownstream = downstream.env().stopToken().onStop(stop::requestStop);
            fromToken = stopWhen.token.onStop(stop::requestStop);
            child.start();
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
        String algorithm() {
            return "stopWhen";
        }

        @Override
        public Env env() {
            return env;
        }

        @Override
        void onValue(T value) {
            release();
            Signals.setValue(downstream, value);
        }

        @Override
        void onError(Throwable error) {
            release();
            Signals.setError(downstream, error);
        }

        @Override
        void onStopped() {
            release();
            Signals.setStopped(downstream);
        }
    }
}
