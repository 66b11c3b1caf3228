package dev.senders.flow;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.rs.PublisherOperation;
import java.util.Objects;
import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@link FlowSenders#fromPublisher} and {@link FlowSenders#fromPublisherList}: a multi-shot sender
 * whose every start subscribes a {@link Flow.Subscriber} to the publisher. The subscriber is a
 * shell over {@link PublisherOperation}, which holds the whole protocol (demand, stop, the rules the
 * publisher is held to, the state word); this class only adapts the {@code Flow} interfaces.
 * Undeliverable errors go to {@link dev.senders.Hooks#onErrorDropped} (the operation's default).
 */
final class PublisherToSender<T, R> implements Sender<R> {

    private final Flow.Publisher<? extends T> source;
    private final int mode;

    /** @param mode {@link PublisherOperation#FIRST}, or {@code LIST | FROZEN_LIST} */
    PublisherToSender(Flow.Publisher<? extends T> source, int mode) {
        this.source = source;
        this.mode = mode;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Operation<T, R>(this, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public String toString() {
        return (mode == PublisherOperation.FIRST ? "FlowSenders.fromPublisher(" : "FlowSenders.fromPublisherList(")
                + source + ")";
    }

    /** The subscriber: {@code Flow} signals in, {@code Flow.Subscription} calls out. */
    static final class Operation<T, R> extends PublisherOperation<T, R> implements Flow.Subscriber<T> {

        Operation(PublisherToSender<T, R> sender, Receiver<? super R> receiver) {
            super(sender.source, receiver, sender.mode);
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            upstreamSubscribe(s);
        }

        @Override
        @SuppressWarnings("unchecked") // the source is a Flow.Publisher<? extends T>
        protected void upstream(int what, @Nullable Object subscription, long n) {
            switch (what) {
                case SUBSCRIBE -> ((Flow.Publisher<T>) source()).subscribe(this);
                case REQUEST -> ((Flow.Subscription) Nulls.nonNull(subscription)).request(n); // set before REQUEST is possible
                default -> ((Flow.Subscription) Nulls.nonNull(subscription)).cancel();
            }
        }
    }
}
