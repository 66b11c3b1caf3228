package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.Objects;
import org.reactivestreams.Publisher;

/**
 * {@link RxSenders#fromFlowable}, {@link RxSenders#fromPublisher} and their variants: a multi-shot
 * sender whose every start subscribes an {@link RxSubscriber} to the {@code Flowable} or
 * {@code Publisher} and completes with the element its selection picks. Demand: 1 for the first
 * element (then cancel), 2 for the single one (a second cancels and fails with
 * {@link IllegalArgumentException}), unbounded otherwise.
 */
final class FlowableToSender<T, R> implements Sender<R>, RxSubscriber.Source<T> {

    private final Publisher<T> source;
    private final int selection;

    /** @param selection one of {@link RxSubscriber#FIRST}, {@code SINGLE}, {@code LAST}, {@code LIST}, {@code IGNORE} */
    FlowableToSender(Publisher<T> source, int selection) {
        this.source = source;
        this.selection = selection;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new RxSubscriber<T, R>(this, selection, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public void subscribe(RxSubscriber<T, ?> subscriber) {
        source.subscribe(subscriber);
    }

    @Override
    public String toString() {
        return "RxSenders.fromPublisher(" + source + ")";
    }
}
