package dev.senders.rxjava3;

import dev.senders.Sender;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeObserver;

/**
 * {@link RxSenders#toMaybe}: a cold {@code Maybe}; each subscription connects and starts the sender
 * anew, as one {@link SenderToRxSubscription}. {@code setValue(v)} = {@code onSuccess(v)}, {@code setValue(null)} = {@code onComplete()}; {@code setError(e)} = {@code onError(e)};
 * {@code setStopped()} = {@code onError(CancellationException)} unless the consumer cancelled.
 * Signals are delivered on the thread that completes the sender.
 */
final class SenderToMaybe<T> extends Maybe<T> {

    private final Sender<T> sender;

    SenderToMaybe(Sender<T> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(MaybeObserver<? super T> observer) {
        new SenderToRxSubscription<T>(observer, SenderToRxSubscription.MAYBE).connectAndStart(sender);
    }

    /** The sender this Maybe runs (what {@code RxSenders.fromMaybe} connects through to). */
    Sender<T> sender() {
        return sender;
    }

    @Override
    public String toString() {
        return "RxSenders.toMaybe(" + sender + ")";
    }
}
