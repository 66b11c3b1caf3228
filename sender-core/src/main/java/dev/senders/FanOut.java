package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.GuardedReceiver;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The operation shape shared by {@link WhenAll} and {@link WhenAny}: start every child under one
 * stop source, let the first decisive child claim the outcome and stop its siblings, and complete
 * downstream once <em>all</em> children have completed (no child outlives the operation).
 *
 * <ul>
 * <li>Children see the downstream env with the token of an {@link InplaceStopSource} owned by the
 *     operation; the downstream token's stop request is forwarded to it.
 * <li>If stop was already requested on the downstream token at {@code start}, the operation
 *     completes stopped and starts no child.
 * <li>The completion is delivered on the thread of the last child to complete, after the stop
 *     callback on the downstream token was deregistered.
 * <li>A child whose {@code connect} throws (or breaks the protocol by returning {@code null}: a
 *     {@link ProtocolViolationException}) decides the outcome: at {@code start} the operation
 *     claims that error, starts the other children with stop already requested (so that they end
 *     and give back what they took, such as a scope association) and delivers the error once
 *     they completed. {@code connect} itself does not throw for a child.
 * </ul>
 */
abstract class FanOut<R> implements OperationState {
    /*
     * remaining counts children not yet completed, plus one "start guard" held while
     * start is still starting children, so that a child completing synchronously cannot
     * finish the operation before the stop callback is registered; the thread that brings it to zero
     * delivers. outcome is UNCLAIMED until a child claims it with
     * a CAS; the claimant writes result before its own decrement of remaining, and the
     * last arriver reads it after its decrement, so the volatile RMWs order the two. Each child has
     * its own GuardedReceiver (one state word) that checks its contract.
     *
     * @param <R> the value type delivered downstream
     */

    static final int UNCLAIMED = 0, VALUE = 1, ERROR = 2, STOPPED = 3;

    final Receiver<? super R> downstream;
    private final InplaceStopSource stop = new InplaceStopSource();
    private final Env env;
    private final Child[] receivers;
    private final OperationState[] ops;
    private volatile int remaining;
    private volatile int outcome;
    private @Nullable Object result;
    private @Nullable StopCallback onDownstreamStop;
    /** What the children's {@code connect}s threw (the first, the others suppressed), or null. */
    private final @Nullable Throwable connectFailure;
    private boolean started;

    FanOut(Sender<?>[] children, Receiver<? super R> downstream) {
        this.downstream = downstream;
        this.env = downstream.env().with(Query.STOP_TOKEN, stop.token());
        int n = children.length;
        this.receivers = new Child[n];
        this.ops = new OperationState[n];
        Throwable failed = null;
        for (int i = 0; i < n; i++) {
            receivers[i] = new Child(this, i);
            try {
                ops[i] = Connect.checked(children[i], receivers[i]);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (failed == null) {
                    failed = t;
                } else if (failed != t) {
                    failed.addSuppressed(t);
                }
            }
        }
        this.connectFailure = failed;
    }

    /** The algorithm's name, for contract-violation messages. */
    abstract String algorithm();

    abstract void childValue(int index, @Nullable Object value);

    /** A child failed: the first error (or stop) claims the outcome, in whenAll and whenAny alike. */
    void childError(int index, Throwable error) {
        claim(ERROR, error);
        arrive();
    }

    abstract void childStopped(int index);

    /** Every child completed and none claimed the outcome. */
    abstract void completeUnclaimed();

    @Override
    public final void start() {
        if (started) {
            throw ImmediateOperation.startedTwice(algorithm() + "'s operation");
        }
        started = true;
        StopToken token = downstream.env().stopToken();
        Throwable failed = connectFailure;
        if (failed == null && token.stopRequested()) {
            Signals.setStopped(downstream);
            return;
        }
        remaining = ops.length + 1;
        StopCallback onStop = token.onStop(stop::requestStop);
        onDownstreamStop = onStop;
        if (failed != null) {
            // a child could not be connected: its failure is the outcome; the others are started
            // with stop already requested, so that they give back what they took, and complete
            claim(ERROR, failed);
        } else if (stop.stopRequested()) {
            onStop.close();
            Signals.setStopped(downstream);
            return;
        }
        for (int i = 0; i < ops.length; i++) {
            OperationState op = ops[i];
            ops[i] = null;
            if (op == null) {
                arrive();   // its connect failed: it will never complete
            } else if (receivers[i].beginStart()) {
                Let.startForeign(op, algorithm());
            }
        }
        arrive();
    }

    /** The first claim wins: it records the outcome and requests stop on the siblings. */
    final void claim(int how, @Nullable Object r) {
        if (OUTCOME.compareAndSet(this, UNCLAIMED, how)) {
            result = r;
            stop.requestStop();
        }
    }

    /** One child (or the start guard) is done; the last one delivers. */
    @SuppressWarnings("unchecked")
    final void arrive() {
        if ((int) REMAINING.getAndAdd(this, -1) != 1) {
            return;
        }
        Nulls.nonNull(onDownstreamStop).close(); // registered in start, before the guard arrives
        switch (outcome) {
            case VALUE:
                Signals.setValue(downstream, (R) result);
                break;
            case ERROR:
                Signals.setError(downstream, (Throwable) Nulls.nonNull(result)); // ERROR carries the error
                break;
            case STOPPED:
                Signals.setStopped(downstream);
                break;
            default:
                completeUnclaimed();
        }
    }

    private static final class Child extends GuardedReceiver<Object> {
        private final FanOut<?> op;
        private final int index;

        Child(FanOut<?> op, int index) {
            this.op = op;
            this.index = index;
        }

        @Override
        protected String algorithm() {
            return op.algorithm();
        }

        @Override
        public Env env() {
            return op.env;
        }

        @Override
        protected void onValue(@Nullable Object value) {
            op.childValue(index, value);
        }

        @Override
        protected void onError(Throwable error) {
            op.childError(index, error);
        }

        @Override
        protected void onStopped() {
            op.childStopped(index);
        }
    }

    private static final VarHandle REMAINING = VarHandles.field(MethodHandles.lookup(), FanOut.class, "remaining", int.class);
    private static final VarHandle OUTCOME = VarHandles.field(MethodHandles.lookup(), FanOut.class, "outcome", int.class);
}
