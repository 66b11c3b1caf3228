package dev.senders.rxjava3;

import dev.senders.Sender;
import dev.senders.internal.rs.PublisherOperation;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeSource;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@link RxSenders#fromMaybe} and {@link RxSenders#fromMaybeOptional}: the {@code Maybe}
 * subscribed by an {@link RxToSenderOperation} on each start. {@code onSuccess(v)} = {@code setValue(v)}
 * (or {@code Optional.of(v)}); {@code onComplete()} = {@code setValue(null)} (or
 * {@code Optional.empty()}), as {@code Maybe.blockingGet()} returns {@code null}.
 */
final class MaybeToSender<T, R> extends RxToSender<T, R> {

    private final boolean optional;

    private MaybeToSender(MaybeSource<T> source, boolean optional) {
        super(source, RxToSenderOperation.FIRST | RxToSenderOperation.OBSERVER | (optional ? PublisherOperation.OPTIONAL : 0),
                optional ? "fromMaybeOptional" : "fromMaybe");
        this.optional = optional;
    }

    static <T> Sender<T> plain(MaybeSource<T> source) {
        return new MaybeToSender<T, T>(source, false);
    }

    static <T> Sender<Optional<T>> optional(MaybeSource<T> source) {
        return new MaybeToSender<T, Optional<T>>(source, true);
    }

    @Override
    @SuppressWarnings("unchecked")
    void subscribe(RxToSenderOperation<T, R> subscriber) {
        ((MaybeSource<T>) source).subscribe(subscriber);
    }

    /** Whether this is {@code fromMaybeOptional} (its values are {@code Optional}s). */
    boolean isOptional() {
        return optional;
    }

    /** The source of {@code fromMaybe(maybe)} (not the Optional variant), for {@link RxSenders#toMaybe}. */
    @SuppressWarnings("unchecked") // not optional: R is T
    @Nullable Maybe<R> originalMaybe() {
        return !optional && source instanceof Maybe ? (Maybe<R>) source : null;
    }
}
