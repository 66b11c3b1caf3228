package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.ObservableSource;
import java.util.Objects;

/**
 * {@link RxSenders#fromObservable} and its variants: a multi-shot sender whose every start
 * subscribes an {@link RxSubscriber} to the {@code Observable} and completes with the element its
 * selection picks. The first selection disposes the upstream at the first element (like
 * {@code firstElement()}); the single one disposes it and fails with
 * {@link IllegalArgumentException} at a second element (like {@code singleElement()}).
 */
final class ObservableToSender<T, R> implements Sender<R>, RxSubscriber.Source<T> {

    private final ObservableSource<T> source;
    private final int selection;

    /** @param selection one of {@link RxSubscriber#FIRST}, {@code SINGLE}, {@code LAST}, {@code LIST}, {@code IGNORE} */
    ObservableToSender(ObservableSource<T> source, int selection) {
        this.source = source;
        this.selection = selection | RxSubscriber.OBSERVER;
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
        return "RxSenders.fromObservable(" + source + ")";
    }
}
