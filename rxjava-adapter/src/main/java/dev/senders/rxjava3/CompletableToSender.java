package dev.senders.rxjava3;

import io.reactivex.rxjava3.core.CompletableSource;

/**
 * {@link RxSenders#fromCompletable}: the {@code Completable} subscribed by an {@link RxToSenderOperation}
 * on each start; {@code onComplete()} = {@code setValue(null)}.
 */
final class CompletableToSender extends RxToSender<Object, Void> {

    CompletableToSender(CompletableSource source) {
        super(source, RxToSenderOperation.IGNORE | RxToSenderOperation.OBSERVER, "fromCompletable");
    }

    @Override
    void subscribe(RxToSenderOperation<Object, Void> subscriber) {
        ((CompletableSource) source).subscribe(subscriber);
    }
}
