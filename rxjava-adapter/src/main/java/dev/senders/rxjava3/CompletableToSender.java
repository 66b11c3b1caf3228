package dev.senders.rxjava3;

import io.reactivex.rxjava3.core.CompletableSource;

/**
 * {@link RxSenders#fromCompletable}: the {@code Completable} subscribed by an {@link RxSubscriber}
 * on each start; {@code onComplete()} = {@code setValue(null)}.
 */
final class CompletableToSender extends RxToSender<Object, Void> {

    CompletableToSender(CompletableSource source) {
        super(source, RxSubscriber.IGNORE | RxSubscriber.OBSERVER, "fromCompletable");
    }

    @Override
    void subscribe(RxSubscriber<Object, Void> subscriber) {
        ((CompletableSource) source).subscribe(subscriber);
    }
}
