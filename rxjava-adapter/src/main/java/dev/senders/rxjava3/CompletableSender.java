package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.CompletableSource;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.Objects;

/**
 * {@link RxSenders#fromCompletable}: a multi-shot {@code Sender<Void>} that subscribes to the
 * {@code Completable} on each start. {@code onComplete()} = {@code setValue(null)}; errors and stop
 * as in {@link SingleSender}.
 */
final class CompletableSender implements Sender<Void> {

    final CompletableSource source; // read by RxSenders.toCompletable to unwrap a round trip

    CompletableSender(CompletableSource source) {
        this.source = source;
    }

    @Override
    public OperationState connect(Receiver<? super Void> receiver) {
        return new Operation(source, Objects.requireNonNull(receiver, "receiver"));
    }

    static final class Operation extends RxSourceOperation<Void> implements CompletableObserver {
        private final CompletableSource source;

        Operation(CompletableSource source, Receiver<? super Void> receiver) {
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
        public void onComplete() {
            upstreamValue(null);
        }

        @Override
        public void onError(Throwable e) {
            upstreamError(e);
        }
    }
}
