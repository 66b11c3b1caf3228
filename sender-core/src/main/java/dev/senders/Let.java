package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ChildOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.Trampoline;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@code let_value}, {@code let_error}, {@code let_stopped} (P2300R3 [exec.let]): when the source
 * completes on the matching channel, the function's sender is connected and started; it completes
 * the downstream receiver, on whatever thread it completes on. The other channels pass through,
 * on the thread the source completes on.
 *
 * <p><b>Tail call.</b> The produced sender is connected <em>directly</em> to the downstream
 * receiver (no forwarding receiver per step: the env is the downstream env, which is what P2300
 * asks the let-receiver to expose), and started through the per-thread {@link Trampoline}, so a
 * recursive loop ({@code loop(i) = just(i).letValue(v -> loop(v + 1))}) uses bounded stack and
 * bounded memory however many synchronous steps it takes. Contract checks on the produced sender
 * are therefore those of the downstream receiver; the source is checked by this operation.
 */
final class Let<T, R> implements Sender<R> {
    /*
     * The operation is the source's receiver; its only shared state is the GuardedReceiver
     * word. It keeps no reference to the produced operation: once that is started, this operation
     * is garbage, so a loop of any length holds one step's objects at a time (plus, when the
     * trampoline is past its depth limit, one queued start).
     */

    static final byte VALUE = 0, ERROR = 1, STOPPED = 2;

    private final Sender<? extends T> source;
    private final byte kind;
    private final Object fn;

    Let(Sender<? extends T> source, byte kind, Object fn) {
        this.source = source;
        this.kind = kind;
        this.fn = fn;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Op<>(this, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op<T, R> extends ChildOperation<T, R> {
        private final Let<T, R> let;

        Op(Let<T, R> let, Receiver<? super R> downstream) {
            super(downstream);
            this.let = let;
            connectChild(let.source);
        }

        @Override
        protected String algorithm() {
            return let.kind == VALUE ? "letValue" : let.kind == ERROR ? "letError" : "letStopped";
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void onValue(@Nullable T value) {
            if (let.kind != VALUE) {
                Signals.setValue(downstream, (R) value);
                return;
            }
            Sender<? extends R> next;
            try {
                next = ((Function<? super T, ? extends Sender<? extends R>>) let.fn).apply(value);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            tail(next);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void onError(Throwable error) {
            if (let.kind != ERROR) {
                Signals.setError(downstream, error);
                return;
            }
            Sender<? extends R> next;
            try {
                next = ((Function<? super Throwable, ? extends Sender<? extends R>>) let.fn).apply(error);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (t != error) {
                    t.addSuppressed(error);
                }
                Signals.setError(downstream, t);
                return;
            }
            tail(next);
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void onStopped() {
            if (let.kind != STOPPED) {
                Signals.setStopped(downstream);
                return;
            }
            Sender<? extends R> next;
            try {
                next = ((Supplier<? extends Sender<? extends R>>) let.fn).get();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            tail(next);
        }

        private void tail(Sender<? extends R> next) {
            OperationState op;
            try {
                Objects.requireNonNull(next, () -> algorithm() + ": the function returned a null sender");
                op = Connect.checked(next, downstream);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            Trampoline.run(() -> startForeign(op, algorithm()));
        }
    }

    /** Starts an operation whose start must not throw (P2300: start is noexcept); if it does, reports it. */
    static void startForeign(OperationState op, String algorithm) {
        try {
            op.start();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            ProtocolViolationException pve = new ProtocolViolationException(
                    algorithm + ": start() of a child operation threw (an operation must report failures through its receiver, not throw from start)");
            pve.initCause(t);
            Hooks.onErrorDropped(pve);
        }
    }
}
