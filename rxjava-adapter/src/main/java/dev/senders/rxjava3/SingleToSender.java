package dev.senders.rxjava3;

import io.reactivex.rxjava3.core.SingleSource;

/**
 * {@link RxSenders#fromSingle}: the {@code Single} subscribed by an {@link RxToSenderOperation} on each
 * start; {@code onSuccess(v)} = {@code setValue(v)}.
 */
final class SingleToSender<T> extends RxToSender<T, T> {

    SingleToSender(SingleSource<T> source) {
        super(source, RxToSenderOperation.FIRST | RxToSenderOperation.OBSERVER, "fromSingle");
    }

    @Override
    @SuppressWarnings("unchecked")
    void subscribe(RxToSenderOperation<T, T> subscriber) {
        ((SingleSource<T>) source).subscribe(subscriber);
    }
}
