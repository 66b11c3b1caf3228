package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Sender;
import dev.senders.internal.Connect;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.disposables.Disposable;

/**
 * {@link RxSenders#toMaybe}: as {@link SenderSingle}, but {@code setValue(null)} =
 * {@code onComplete()} (empty).
 */
final class SenderMaybe<T> extends Maybe<T> {

    private final Sender<T> sender;

    SenderMaybe(Sender<T> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(MaybeObserver<? super T> observer) {
        Op<T> op = new Op<>(observer);
        OperationState state;
        try {
            state = Connect.checked(sender, op);
        } catch (Throwable t) {
            Exceptions.throwIfFatal(t);
            observer.onSubscribe(Disposable.disposed());
            observer.onError(t);
            return;
        }
        observer.onSubscribe(op);
        if (!op.isDisposed()) {
            RxStart.start(state, op);
        }
    }

    static final class Op<T> extends DisposableReceiver<T> {
        private final MaybeObserver<? super T> downstream;

        Op(MaybeObserver<? super T> downstream) {
            this.downstream = downstream;
        }

        @Override
        void deliverValue(T value) {
            if (value == null) {
                downstream.onComplete();
            } else {
                downstream.onSuccess(value);
            }
        }

        @Override
        void deliverError(Throwable error) {
            downstream.onError(error);
        }
    }
}
