package dev.senders.rxjava3;

import dev.senders.Sender;
import org.reactivestreams.Publisher;

/**
 * {@link RxSenders#fromFlowable}, {@link RxSenders#fromPublisher} and their variants: the
 * {@code Flowable} or {@code Publisher} subscribed by an {@link RxToSenderOperation} that completes with the
 * element its selection picks. Demand: 1 for the first element (then cancel), 2 for the single one
 * (a second cancels and fails with {@link IllegalArgumentException}), unbounded otherwise.
 */
final class FlowableToSender<T, R> extends RxToSender<T, R> {

    /** @param selection one of {@link RxToSenderOperation#FIRST}, {@code SINGLE}, {@code LAST}, {@code LIST}, {@code IGNORE} */
    FlowableToSender(Publisher<T> source, int selection) {
        super(source, selection, "fromPublisher");
    }

    /**
     * The sender for a selection of zero or one element ({@code FIRST}, {@code SINGLE}, {@code LAST}):
     * the inner sender itself when {@code source} is the library's own {@code toFlowable} (every
     * such selection of its at most one element is that element; RS11), so that it is
     * connected with the outer receiver's env; an adapter otherwise.
     */
    static <T> Sender<T> of(Publisher<T> source, int selection) {
        if (source instanceof SenderToFlowable) {
            return ((SenderToFlowable<T>) source).sender();
        }
        return new FlowableToSender<T, T>(source, selection);
    }

    @Override
    @SuppressWarnings("unchecked")
    void subscribe(RxToSenderOperation<T, R> subscriber) {
        ((Publisher<T>) source).subscribe(subscriber);
    }
}
