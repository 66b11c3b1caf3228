package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.CompletableSource;
import java.util.Objects;

/**
 * {@link RxSenders#fromCompletable}: a multi-shot {@code Sender<Void>} whose every start
 * subscribes an {@link RxSubscriber} to the {@code Completable}: {@code onComplete()} =
 * {@code setValue(null)}.
 */
final class CompletableToSender implements Sender<Void>, RxSubscriber.Source<Object> {

    final CompletableSource source; // read by RxSenders.toCompletable to unwrap a round trip

    CompletableToSender(CompletableSource source) {
        this.source = source;
    }

    @Override
    public OperationState connect(Receiver<? super Void> receiver) {
        return new RxSubscriber<Object, Void>(this, RxSubscriber.IGNORE | RxSubscriber.OBSERVER,
                Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public void subscribe(RxSubscriber<Object, ?> subscriber) {
        source.subscribe(subscriber);
    }

    @Override
    public String toString() {
        return "RxSenders.fromCompletable(" + source + ")";
    }
}
