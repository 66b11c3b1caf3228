package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.SingleSource;
import java.util.Objects;

/**
 * {@link RxSenders#fromSingle}: a multi-shot sender whose every start subscribes an
 * {@link RxSubscriber} to the {@code Single}: {@code onSuccess(v)} = {@code setValue(v)}.
 */
final class SingleToSender<T> implements Sender<T>, RxSubscriber.Source<T> {

    final SingleSource<T> source; // read by RxSenders.toSingle to unwrap a round trip

    SingleToSender(SingleSource<T> source) {
        this.source = source;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new RxSubscriber<T, T>(this, RxSubscriber.FIRST | RxSubscriber.OBSERVER,
                Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public void subscribe(RxSubscriber<T, ?> subscriber) {
        source.subscribe(subscriber);
    }

    @Override
    public String toString() {
        return "RxSenders.fromSingle(" + source + ")";
    }
}
