package dev.senders;

import dev.senders.internal.signal.Signals;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code when_any} (stdexec {@code exec::when_any}, a race): starts every child; the first child
 * to complete with a <em>value or an error</em> wins and requests stop on the others; the
 * operation completes with the winner's result once <em>all</em> children have completed (no
 * child outlives it). A child that completes stopped never wins: if every child completes stopped
 * (for instance because the downstream receiver's stop request was forwarded to them), the
 * operation completes stopped. Stop forwarding, stop before start, and the completing thread:
 * see {@link FanOut}.
 */
final class WhenAny<T> implements Sender<T> {

    private final Sender<? extends T>[] children;

    WhenAny(Sender<? extends T>[] children) {
        this.children = children;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Op<>(children, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op<T> extends FanOut<T> {

        Op(Sender<? extends T>[] children, Receiver<? super T> downstream) {
            super(children, downstream);
        }

        @Override
        String algorithm() {
            return "whenAny";
        }

        @Override
        void childValue(int index, @Nullable Object value) {
            claim(VALUE, value);
            arrive();
        }

        @Override
        void childStopped(int index) {
            arrive();
        }

        @Override
        void completeUnclaimed() {
            Signals.setStopped(downstream);
        }
    }
}
