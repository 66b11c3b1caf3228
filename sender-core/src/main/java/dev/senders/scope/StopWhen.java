package dev.senders.scope;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import java.util.Objects;

/**
 * P3149R6's exposition-only {@code stop_when(sndr, stoken)}: the child sees a stop token that fires
 * when either its receiver's token or {@code stoken} fires. Package-private (the public
 * {@code stopWhen} algorithm belongs to dev.senders).
 *
 * <p>When the receiver's token cannot stop, the child gets {@code stoken} itself and nothing is
 * allocated besides the operation; otherwise the operation owns an {@link InplaceStopSource} fed by
 * two callbacks, registered at {@code start} and closed before the completion is forwarded (the
 * stop-token rule: deregister before completing).
 */
final class StopWhen<T> implements Sender<T> {

    private final Sender<T> child;
    private final StopToken token;

    StopWhen(Sender<T> child, StopToken token) {
        this.child = child;
        this.token = token;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        StopToken outer = receiver.env().stopToken();
        if (!outer.stopPossible()) {
            Env env = receiver.env().with(Query.STOP_TOKEN, token);
            return child.connect(new Receiver<T>() {
                @Override
                public void setValue(T value) {
                    receiver.setValue(value);
                }

                @Override
                public void setError(Throwable error) {
                    receiver.setError(error);
                }

                @Override
                public void setStopped() {
                    receiver.setStopped();
                }

                @Override
                public Env env() {
                    return env;
                }
            });
        }
        return new Op<>(child, receiver, outer, token);
    }

    static final class Op<T> implements OperationState, Receiver<T>, Runnable {
        private final Receiver<? super T> receiver;
        private final StopToken outer;
        private final StopToken scope;
        private final InplaceStopSource source = new InplaceStopSource();
        private final Env env;
        private OperationState childOp;
        private StopCallback c1;
        private StopCallback c2;

        Op(Sender<T> child, Receiver<? super T> receiver, StopToken outer, StopToken scope) {
            this.receiver = receiver;
            this.outer = outer;
            this.scope = scope;
            this.env = receiver.env().with(Query.STOP_TOKEN, source.token());
            this.childOp = child.connect(this);
        }

        @Override
        public void start() {
            c1 = outer.onStop(this);
            c2 = scope.onStop(this);
            OperationState op = childOp;
            childOp = null;
            op.start();
        }

        @Override
        public void run() {
            source.requestStop();
        }

        private void deregister() {
            StopCallback a = c1, b = c2;
            if (a != null) {
                a.close();
            }
            if (b != null) {
                b.close();
            }
        }

        @Override
        public void setValue(T value) {
            deregister();
            receiver.setValue(value);
        }

        @Override
        public void setError(Throwable error) {
            deregister();
            receiver.setError(error);
        }

        @Override
        public void setStopped() {
            deregister();
            receiver.setStopped();
        }

        @Override
        public Env env() {
            return env;
        }
    }

}
