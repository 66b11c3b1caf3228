package dev.senders.rxjava3;

import dev.senders.Sender;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;

/**
 * {@link RxSenders#toCompletable}: a cold {@code Completable}; each subscription connects and starts the sender
 * anew, as one {@link SenderToRxSubscription}. Any value (null or not) = {@code onComplete()}; {@code setError(e)} = {@code onError(e)};
 * {@code setStopped()} = {@code onError(CancellationException)} unless the consumer cancelled.
 * Signals are delivered on the thread that completes the sender.
 */
final class SenderToCompletable extends Completable {

    private final Sender<?> sender;

    SenderToCompletable(Sender<?> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(CompletableObserver observer) {
        new SenderToRxSubscription<Object>(observer, SenderToRxSubscription.COMPLETABLE).connectAndStart(sender);
    }

    @Override
    public String toString() {
        return "RxSenders.toCompletable(" + sender + ")";
    }
}
