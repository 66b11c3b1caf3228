package dev.senders;

import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * {@code when_all} (P2300R3 [exec.when_all]): starts every child and completes once <em>all</em>
 * of them have completed, with the list of their values (in argument order, {@code null}s kept),
 * or with the first error, or stopped.
 *
 * <ul>
 * <li>Children see the downstream env with the stop token of an {@link InplaceStopSource} owned
 *     by the operation; the downstream token's stop request is forwarded to it.
 * <li>The first child to complete with an error or stopped requests stop on that source (so on
 *     its siblings); its outcome wins (an error wins over a later stopped and vice versa: first
 *     come, first served). Later errors are discarded, as in P2300.
 * <li>Values are delivered only if every child completed with a value, even if stop was
 *     requested meanwhile (stdexec does the same).
 * <li>If stop was already requested on the downstream token at {@code start}, the operation
 *     completes stopped and starts no child.
 * <li>The completion is delivered on the thread of the last child to complete, after the stop
 *     callback on the downstream token was deregistered.
 * </ul>
 *
 * <h2>Implementation notes</h2>
 * {@code remaining} counts children not yet completed (plus one "start guard" held while
 * {@code start} is still starting children, so that a child completing synchronously cannot
 * finish the operation before the stop callback is registered); the thread that brings it to
 * zero delivers. {@code outcome} is {@code VALUE} until the first error or stopped CASes it.
 * Each child has its own {@link GuardedReceiver} (one state word) that checks its contract.
 */
final class WhenAll implements Sender<List<Object>> {

    static final int VALUE = 0, ERROR = 1, STOPPED = 2;

    private final Sender<?>[] children;

    WhenAll(Sender<?>[] children) {
        this.children = children;
    }

    @Override
    public OperationState connect(Receiver<? super List<Object>> receiver) {
        return new Op(children, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op implements OperationState {
        private final Receiver<? super List<Object>> downstream;
        private final InplaceStopSource stop = new InplaceStopSource();
        private final Env env;
        private final Object[] values;
        private final Child[] receivers;
        private final OperationState[] ops;
        private volatile int remaining;
        private volatile int outcome;
        private Throwable error;
        private StopCallback onDownstreamStop;

        Op(Sender<?>[] children, Receiver<? super List<Object>> downstream) {
            this.downstream = downstream;
            this.env = downstream.env().with(Query.STOP_TOKEN, stop.token());
            int n = children.length;
            this.values = new Object[n];
            this.receivers = new Child[n];
            this.ops = new OperationState[n];
            for (int i = 0; i < n; i++) {
                receivers[i] = new Child(this, i);
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
                    Let.startForeign(op, "whenAll");
                }
            }
            arrive();
        }

        void childValue(int index, Object value) {
            values[index] = value;
            arrive();
        }

        void childError(Throwable e) {
            if (OUTCOME.compareAndSet(this, VALUE, ERROR)) {
                error = e;
                stop.requestStop();
            }
            arrive();
        }

        void childStopped() {
            if (OUTCOME.compareAndSet(this, VALUE, STOPPED)) {
                stop.requestStop();
            }
            arrive();
        }

        private void arrive() {
            if ((int) REMAINING.getAndAdd(this, -1) != 1) {
                return;
            }
            onDownstreamStop.close();
            int o = outcome;
            if (o == VALUE) {
                Signals.setValue(downstream, Collections.unmodifiableList(Arrays.asList(values)));
            } else if (o == ERROR) {
                Signals.setError(downstream, error);
            } else {
                Signals.setStopped(downstream);
            }
        }
    }

    private static final class Child extends GuardedReceiver<Object> {
        private final Op op;
        private final int index;

        Child(Op op, int index) {
            this.op = op;
            this.index = index;
        }

        @Override
        String algorithm() {
            return "whenAll";
        }

        @Override
        public Env env() {
            return op.env;
        }

        @Override
        void onValue(Object value) {
            op.childValue(index, value);
        }

        @Override
        void onError(Throwable error) {
            op.childError(error);
        }

        @Override
        void onStopped() {
            op.childStopped();
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
