package dev.senders;

import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * {@code when_any} (stdexec {@code exec::when_any}, a race): starts every child; the first child
 * to complete with a <em>value or an error</em> wins and requests stop on the others; the
 * operation completes with the winner's result once <em>all</em> children have completed (no
 * child outlives it). A child that completes stopped never wins: if every child completes stopped
 * (for instance because the downstream receiver's stop request was forwarded to them), the
 * operation completes stopped.
 *
 * <ul>
 * <li>Children see the downstream env with the token of an {@link InplaceStopSource} owned by the
 *     operation; the downstream token's stop request is forwarded to it.
 * <li>If stop was already requested on the downstream token at {@code start}, the operation
 *     completes stopped and starts no child.
 * <li>The completion is delivered on the thread of the last child to complete.
 * </ul>
 *
 * <h2>Implementation notes</h2>
 * As {@link WhenAll}: {@code remaining} counts unfinished children plus a start guard;
 * {@code outcome} is {@code NONE} until the winner CASes it to {@code VALUE} or {@code ERROR}
 * (and publishes {@code result} before its own decrement).
 */
final class WhenAny<T> implements Sender<T> {

    private static final int NONE = 0, VALUE = 1, ERROR = 2;

    private final Sender<? extends T>[] children;

    WhenAny(Sender<? extends T>[] children) {
        this.children = children;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Op<>(children, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op<T> implements OperationState {
        private final Receiver<? super T> downstream;
        private final InplaceStopSource stop = new InplaceStopSource();
        private final Env env;
        private final Child<T>[] receivers;
        private final OperationState[] ops;
        private volatile int remaining;
        private volatile int outcome;
        private Object result;
        private StopCallback onDownstreamStop;

        @SuppressWarnings("unchecked")
        Op(Sender<? extends T>[] children, Receiver<? super T> downstream) {
            this.downstream = downstream;
            this.env = downstream.env().with(Query.STOP_TOKEN, stop.token());
            int n = children.length;
            this.receivers = (Child<T>[]) new Child<?>[n];
            this.ops = new OperationState[n];
            for (int i = 0; i < n; i++) {
                receivers[i] = new Child<>(this);
                ops[i] = children[i].connect(receivers[i]);
            }
        }

        @Override
        public void start() {
            StopToken token = downstream.env().stopToken();
            if (token.stopRequested()) {
                Signals.setStopped(downstream);
                return;
            }
            remaining = ops.length + 1;
            onDownstreamStop = token.onStop(stop::requestStop);
            if (stop.stopRequested()) {
                onDownstreamStop.close();
                Signals.setStopped(downstream);
                return;
            }
            for (int i = 0; i < ops.length; i++) {
                OperationState op = ops[i];
                ops[i] = null;
                if (receivers[i].beginStart()) {
                    Let.startForeign(op, "whenAny");
                }
            }
            arrive();
        }

        void win(int how, Object r) {
            if (OUTCOME.compareAndSet(this, NONE, how)) {
                result = r;
                stop.requestStop();
            }
            arrive();
        }

        @SuppressWarnings("unchecked")
        void arrive() {
            if ((int) REMAINING.getAndAdd(this, -1) != 1) {
                return;
            }
            onDownstreamStop.close();
            int o = outcome;
            if (o == VALUE) {
                Signals.setValue(downstream, (T) result);
            } else if (o == ERROR) {
                Signals.setError(downstream, (Throwable) result);
            } else {
                Signals.setStopped(downstream);
            }
        }
    }

    private static final class Child<T> extends GuardedReceiver<T> {
        private final Op<T> op;

        Child(Op<T> op) {
            this.op = op;
        }

        @Override
        String algorithm() {
            return "whenAny";
        }

        @Override
        public Env env() {
            return op.env;
        }

        @Override
        void onValue(T value) {
            op.win(VALUE, value);
        }

        @Override
        void onError(Throwable error) {
            op.win(ERROR, error);
        }

        @Override
        void onStopped() {
            op.arrive();
        }
    }

    private static final VarHandle REMAINING;
    private static final VarHandle OUTCOME;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            REMAINING = l.findVarHandle(Op.class, "remaining", int.class);
            OUTCOME = l.findVarHandle(Op.class, "outcome", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
