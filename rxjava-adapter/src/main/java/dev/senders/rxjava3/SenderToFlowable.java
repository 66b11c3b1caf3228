package dev.senders.rxjava3;

import dev.senders.Sender;
import io.reactivex.rxjava3.core.Flowable;
import org.reactivestreams.Subscriber;

/**
 * {@link RxSenders#toFlowable}: a cold {@code Flowable}; each subscription connects and starts the sender
 * anew, as one {@link SenderToRxSubscription}. {@code setValue(v)} = {@code onNext(v)} (once requested, §1.1) then {@code onComplete()}, {@code setValue(null)} = {@code onComplete()}; {@code setError(e)} = {@code onError(e)};
 * {@code setStopped()} = {@code onError(CancellationException)} unless the consumer cancelled.
 * Signals are delivered on the thread that completes the sender (a value that waited for demand: on the thread that calls {@code request}).
 */
final class SenderToFlowable<T> extends Flowable<T> {

    private final Sender<T> sender;

    SenderToFlowable(Sender<T> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(Subscriber<? super T> observer) {
        new SenderToRxSubscription<T>(observer, SenderToRxSubscription.FLOWABLE).connectAndStart(sender);
    }

    /** The sender this Flowable runs (what {@code RxSenders.fromFlowable} connects through to). */
    Sender<T> sender() {
        return sender;
    }

    @Override
    public String toString() {
        return "RxSenders.toFlowable(" + sender + ")";
    }
}
