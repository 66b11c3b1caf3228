package dev.senders.flow;

import dev.senders.Sender;
import dev.senders.internal.rs.SenderSubscription;
import java.util.Objects;
import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;

/**
 * {@link FlowSenders#toPublisher}: a cold {@link Flow.Publisher} of zero or one element. Each
 * subscription is one {@link SenderSubscription} (the subscription, the sender's receiver, its env
 * and its stop token at once), which holds the whole protocol; this class only adapts the
 * {@code Flow} interfaces. Undeliverable errors go to {@link dev.senders.Hooks#onErrorDropped}.
 */
final class SenderToPublisher<T> implements Flow.Publisher<T> {

    private final Sender<? extends T> sender;

    SenderToPublisher(Sender<? extends T> sender) {
        this.sender = sender;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        new Subscription<T>(Objects.requireNonNull(subscriber, "subscriber")).connectAndStart(sender); // §1.9
    }

    @Override
    public String toString() {
        return "FlowSenders.toPublisher(" + sender + ")";
    }

    /** The subscription: {@code Flow.Subscription} calls in, {@code Flow.Subscriber} signals out. */
    static final class Subscription<T> extends SenderSubscription<T> implements Flow.Subscription {

        Subscription(Flow.Subscriber<? super T> subscriber) {
            super(subscriber, 0);
        }

        @Override
        @SuppressWarnings("unchecked") // actual is the Flow.Subscriber<? super T> given to the constructor
        protected void signal(Object actual, int what, @Nullable Object payload) {
            Flow.Subscriber<Object> s = (Flow.Subscriber<Object>) actual;
            switch (what) {
                case ON_SUBSCRIBE -> s.onSubscribe(this);
                case ON_NEXT -> s.onNext(payload);
                case ON_COMPLETE -> s.onComplete();
                default -> s.onError((Throwable) payload);
            }
        }
    }
}
