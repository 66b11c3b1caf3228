package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.PublisherOperation;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeSource;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link RxSenders#fromMaybe} and {@link RxSenders#fromMaybeOptional}: a multi-shot sender whose
 * every start subscribes an {@link RxSubscriber} to the {@code Maybe}. {@code onSuccess(v)} =
 * {@code setValue(v)} (or {@code Optional.of(v)}); {@code onComplete()} = {@code setValue(null)} (or
 * {@code Optional.empty()}), as {@code Maybe.blockingGet()} returns {@code null}.
 */
final class MaybeToSender<T, R> implements Sender<R>, RxSubscriber.Source<T> {

    private final MaybeSource<T> source;
    private final boolean optional;

    private MaybeToSender(MaybeSource<T> source, boolean optional) {
        this.source = source;
        this.optional = optional;
    }

    static <T> Sender<T> plain(MaybeSource<T> source) {
        return new MaybeToSender<T, T>(source, false);
    }

    static <T> Sender<Optional<T>> optional(MaybeSource<T> source) {
        return new MaybeToSender<T, Optional<T>>(source, true);
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        int mode = RxSubscriber.FIRST | RxSubscriber.OBSERVER | (optional ? PublisherOperation.OPTIONAL : 0);
        return new RxSubscriber<T, R>(this, mode, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public void subscribe(RxSubscriber<T, ?> subscriber) {
        source.subscribe(subscriber);
    }

    /** The source of {@code fromMaybe(maybe)} (not the Optional variant), for {@link RxSenders#toMaybe}. */
    @SuppressWarnings("unchecked") // not optional: R is T
    Maybe<R> originalMaybe() {
        return !optional && source instanceof Maybe ? (Maybe<R>) source : null;
    }

    @Override
    public String toString() {
        return "RxSenders.fromMaybe(" + source + ")";
    }
}
