package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Sender;
import dev.senders.internal.Connect;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.disposables.Disposable;

/**
 * {@link RxSenders#toCompletable}: as {@link SenderSingle}, but any value (null or not) =
 * {@code onComplete()}; the value is ignored.
 */
final class SenderCompletable extends Completable {

    private final Sender<?> sender;

    SenderCompletable(Sender<?> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(CompletableObserver observer) {
        Op op = new Op(observer);
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

    static final class Op extends DisposableReceiver<Object> {
        private final CompletableObserver downstream;

        Op(CompletableObserver downstream) {
            this.downstream = downstream;
        }

        @Override
        void deliverValue(Object value) {
            downstream.onComplete();
        }

        @Override
        void deliverError(Throwable error) {
            downstream.onError(error);
        }
    }
}
