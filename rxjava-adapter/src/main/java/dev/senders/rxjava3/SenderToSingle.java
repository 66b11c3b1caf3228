package dev.senders.rxjava3;

import dev.senders.Sender;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;

/**
 * {@link RxSenders#toSingle}: a cold {@code Single}; each subscription connects and starts the sender
 * anew, as one {@link SenderToRxSubscription}. {@code setValue(v)} = {@code onSuccess(v)}, {@code setValue(null)} = {@code onError(NoSuchElementException)}; {@code setError(e)} = {@code onError(e)};
 * {@code setStopped()} = {@code onError(CancellationException)} unless the consumer cancelled.
 * Signals are delivered on the thread that completes the sender.
 */
final class SenderToSingle<T> extends Single<T> {

    private final Sender<T> sender;

    SenderToSingle(Sender<T> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(SingleObserver<? super T> observer) {
        new SenderToRxSubscription<T>(observer, SenderToRxSubscription.SINGLE).connectAndStart(sender);
    }

    @Override
    public String toString() {
        return "RxSenders.toSingle(" + sender + ")";
    }
}
