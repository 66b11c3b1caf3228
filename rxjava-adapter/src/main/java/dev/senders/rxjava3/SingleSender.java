package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.core.SingleSource;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.Objects;

/**
 * {@link RxSenders#fromSingle}: a multi-shot sender that subscribes to the {@code Single} on each
 * start. {@code onSuccess(v)} = {@code setValue(v)}, {@code onError(e)} = {@code setError(e)}
 * ({@code setStopped} for a {@link java.util.concurrent.CancellationException}); a stop request
 * disposes the subscription and completes stopped. The receiver is completed on the thread that
 * signals the {@code Single}, or on the thread that requests stop.
 */
final class SingleSender<T> implements Sender<T> {

    final SingleSource<T> source; // read by RxSenders.toSingle to unwrap a round trip

    SingleSender(SingleSource<T> source) {
        this.source = source;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Operation<>(source, Objects.requireNonNull(receiver, "receiver"));
    }

    static final class Operation<T> extends RxSourceOperation<T> implements SingleObserver<T> {
        private final SingleSource<T> source;

        Operation(SingleSource<T> source, Receiver<? super T> receiver) {
            super(receiver);
            this.source = source;
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
        public void onSuccess(T value) {
            if (value == null) { // RxJava forbids null values; never pass it on silently
                upstreamError(new NullPointerException("Single.onSuccess called with null"));
                return;
            }
            upstreamValue(value);
        }

        @Override
        public void onError(Throwable e) {
            upstreamError(e);
        }
    }
}
