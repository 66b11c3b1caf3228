package dev.senders.rxjava3;

import io.reactivex.rxjava3.core.ObservableSource;

/**
 * {@link RxSenders#fromObservable} and its variants: the {@code Observable} subscribed by an
 * {@link RxToSenderOperation} that completes with the element its selection picks. The first selection
 * disposes the upstream at the first element (like {@code firstElement()}); the single one
 * disposes it and fails with {@link IllegalArgumentException} at a second element (like
 * {@code singleElement()}).
 */
final class ObservableToSender<T, R> extends RxToSender<T, R> {

    /** @param selection one of {@link RxToSenderOperation#FIRST}, {@code SINGLE}, {@code LAST}, {@code LIST}, {@code IGNORE} */
    ObservableToSender(ObservableSource<T> source, int selection) {
        super(source, selection | RxToSenderOperation.OBSERVER, "fromObservable");
    }

    @Override
    @SuppressWarnings("unchecked")
    void subscribe(RxToSenderOperation<T, R> subscriber) {
        ((ObservableSource<T>) source).subscribe(subscriber);
    }
}
