package dev.senders;

import dev.senders.internal.signal.ChildOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.signal.Stages;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code then}, {@code upon_error}, {@code upon_stopped} (P2300R3 [exec.then], [exec.upon_error],
 * [exec.upon_stopped]) and the stages of {@code stoppedAsOptional} / {@code stoppedAsError}, fused.
 *
 * <p>A transform applied to another transform does not wrap it: it records one more stage on the
 * chain. {@code connect} walks the chain iteratively, collects the stages into arrays and connects
 * the first non-transform sender once, to one receiver that applies the stages in a loop. So
 * neither {@code connect} nor the completion recurses, whatever the chain's length (100,000
 * nested {@code then}s cost two arrays, not 100,000 frames). Every stage runs on the thread on
 * which the source completes; a stage that throws turns the signal into an error for the stages
 * after it (P2300: user code that throws becomes {@code set_error}).
 */
final class Then<T> implements Sender<T>, Stages.Chain {
    /*
     * A Then node is immutable: the root source (shared by every node of a chain),
     * the previous node, its own stage (kind, fn) and its depth. The
     * operation applies the chain's Stages (a byte[] of kinds and an Object[]
     * of functions; the one loop over them is Stages.apply). Its only
     * shared state is the GuardedReceiver word that checks the source's contract.
     *
     * The arrays depend only on the chain, so the node that is connected builds them once and
     * keeps them (Stages, immutable): a sender connected many times (a per-request pipeline)
     * allocates only its operation per connect. The cache field is written without synchronization:
     * Stages' fields are final, so a thread that sees the reference sees the filled arrays
     * (JLS 17.5); two threads racing on the first connect both build equal arrays, one is kept.
     */

    static final byte ON_VALUE = Stages.ON_VALUE, ON_ERROR = Stages.ON_ERROR, ON_STOPPED = Stages.ON_STOPPED,
            STOPPED_AS_ERROR = Stages.STOPPED_AS_ERROR;

    private final Sender<?> source;     // never a Then
    private final @Nullable Then<?> previous;     // the stage before this one, or null
    private final byte kind;
    private final Object fn;
    private final int depth;
    /** The stages of the chain ending here, built by the first connect (see the class notes). */
    private @Nullable Stages stages;

    private Then(Sender<?> source, @Nullable Then<?> previous, byte kind, Object fn, int depth) {
        this.source = source;
        this.previous = previous;
        this.kind = kind;
        this.fn = fn;
        this.depth = depth;
    }

    static <R> Sender<R> stage(Sender<?> upstream, byte kind, Object fn) {
        if (upstream instanceof Then) {
            Then<?> p = (Then<?>) upstream;
            return new Then<>(p.source, p, kind, fn, p.depth + 1);
        }
        return new Then<>(upstream, null, kind, fn, 1);
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        return new Op<>(receiver, stages(), source);
    }

    @Override
    public Sender<?> stagesSource() {
        return source;
    }

    @Override
    public Stages stages() {
        Stages st = stages;
        if (st == null) {
            byte[] kinds = new byte[depth];
            Object[] fns = new Object[depth];
            int i = depth;
            for (Then<?> t = this; t != null; t = t.previous) {
                kinds[--i] = t.kind;
                fns[i] = t.fn;
            }
            stages = st = new Stages(kinds, fns);
        }
        return st;
    }

    /** The fused operation; it is also the receiver connected to the source. */
    private static final class Op<R> extends ChildOperation<Object, R> implements Stages.Sink {
        private final Stages stages;

        Op(Receiver<? super R> downstream, Stages stages, Sender<?> source) {
            super(downstream);
            this.stages = stages;
            connectChild(source);
        }

        @Override
        protected String algorithm() {
            return "then";
        }

        @Override
        protected void onValue(@Nullable Object value) {
            stages.apply(Stages.VALUE, value, this);
        }

        @Override
        protected void onError(Throwable error) {
            stages.apply(Stages.ERROR, error, this);
        }

        @Override
        protected void onStopped() {
            stages.apply(Stages.STOPPED, null, this);
        }

        @Override
        @SuppressWarnings("unchecked") // the last stage's result is an R
        public void value(@Nullable Object value) {
            Signals.setValue(downstream, (R) value);
        }

        @Override
        public void error(Throwable error) {
            Signals.setError(downstream, error);
        }

        @Override
        public void stopped() {
            Signals.setStopped(downstream);
        }
    }
}
