package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.Objects;

/**
 * What the RxJava-to-sender conversions share: a multi-shot sender whose every start subscribes
 * an {@link RxToSenderOperation} to the source and completes with what the mode selects. Each subclass
 * says how its kind of source is subscribed ({@link #subscribe}).
 */
abstract class RxToSender<T, R> implements Sender<R> {

    /** The RxJava source (read by {@link RxSenders} to unwrap identity round trips). */
    final Object source;
    private final int mode;
    private final String name;

    RxToSender(Object source, int mode, String name) {
        this.source = source;
        this.mode = mode;
        this.name = name;
    }

    /** Subscribes the operation's consumer to the source. */
    abstract void subscribe(RxToSenderOperation<T, R> subscriber);

    @Override
    public final OperationState connect(Receiver<? super R> receiver) {
        return new RxToSenderOperation<T, R>(this, mode, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public final String toString() {
        return "RxSenders." + name + "(" + source + ")";
    }
}
