package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.MaybeSource;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link RxSenders#fromMaybe} and {@link RxSenders#fromMaybeOptional}: a multi-shot sender that
 * subscribes to the {@code Maybe} on each start. {@code onSuccess(v)} = {@code setValue(v)} (or
 * {@code Optional.of(v)}); {@code onComplete()} = {@code setValue(null)} (or
 * {@code Optional.empty()}), as {@code Maybe.blockingGet()} returns {@code null}; errors and stop as
 * in {@link SingleSender}.
 */
final class MaybeSender<T, R> implements Sender<R> {

    private final MaybeSource<T> source;
    private final boolean optional;

    private MaybeSender(MaybeSource<T> source, boolean optional) {
        this.source = source;
        this.optional = optional;
    }

    static <T> Sender<T> plain(MaybeSource<T> source) {
        return new MaybeSender<T, T>(source, false);
    }

    static <T> Sender<Optional<T>> optional(MaybeSource<T> source) {
        return new MaybeSender<T, Optional<T>>(source, true);
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Operation<>(source, optional, Objects.requireNonNull(receiver, "receiver"));
    }

    /** The source of {@code fromMaybe(maybe)} (not the Optional variant), for {@link RxSenders#toMaybe}. */
    @SuppressWarnings("unchecked") // not optional: R is T
    Maybe<R> originalMaybe() {
        return !optional && source instanceof Maybe ? (Maybe<R>) source : null;
    }

    static final class Operation<T, R> extends RxSourceOperation<R> implements MaybeObserver<T> {
        private final MaybeSource<T> source;
        private final boolean optional;

        Operation(MaybeSource<T> source, boolean optional, Receiver<? super R> receiver) {
            super(receiver);
            this.source = source;
            this.optional = optional;
        }

        @Override
        void subscribeUpstream() {
            source.subscribe(this);
        }

        @Override
        public void onSubscribe(Disposable d) {
            upstreamSubscribe(d);
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onSuccess(T value) {
            if (value == null) {
                upstreamError(new NullPointerException("Maybe.onSuccess called with null"));
                return;
            }
            upstreamValue(optional ? (R) Optional.of(value) : (R) value);
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onComplete() {
            upstreamValue(optional ? (R) Optional.empty() : null);
        }

        @Override
        public void onError(Throwable e) {
            upstreamError(e);
        }
    }
}
