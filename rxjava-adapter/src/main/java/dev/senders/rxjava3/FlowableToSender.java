package dev.senders.rxjava3;

import org.reactivestreams.Publisher;

/**
 * {@link RxSenders#fromFlowable}, {@link RxSenders#fromPublisher} and their variants: the
 * {@code Flowable} or {@code Publisher} subscribed by an {@link RxSubscriber} that completes with the
 * element its selection picks. Demand: 1 for the first element (then cancel), 2 for the single one
 * (a second cancels and fails with {@link IllegalArgumentException}), unbounded otherwise.
 */
final class FlowableToSender<T, R> extends RxToSender<T, R> {

    /** @param selection one of {@link RxSubscriber#FIRST}, {@code SINGLE}, {@code LAST}, {@code LIST}, {@code IGNORE} */
    FlowableToSender(Publisher<T> source, int selection) {
        super(source, selection, "fromPublisher");
    }

    @Override
    @SuppressWarnings("unchecked")
    void subscribe(RxSubscriber<T, R> subscriber) {
        ((Publisher<T>) source).subscribe(subscriber);
    }
}
