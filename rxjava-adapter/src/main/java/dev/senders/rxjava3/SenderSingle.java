package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Sender;
import dev.senders.internal.Connect;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.NoSuchElementException;

/**
 * {@link RxSenders#toSingle}: each subscription connects and starts the sender anew (cold).
 * {@code setValue(v)} = {@code onSuccess(v)}, {@code setValue(null)} =
 * {@code onError(NoSuchElementException)}, {@code setError(e)} = {@code onError(e)},
 * {@code setStopped()} = {@code onError(CancellationException)} unless the observer disposed;
 * {@code dispose()} requests stop on the receiver's token. Signals are delivered on the thread
 * that completes the sender. See {@link DisposableReceiver} for the state encoding.
 */
final class SenderSingle<T> extends Single<T> {

    private final Sender<T> sender;

    SenderSingle(Sender<T> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(SingleObserver<? super T> observer) {
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
        if (!op.isDisposed()) { // disposed inside onSubscribe: drop the unstarted operation
            RxStart.start(state, op);
        }
    }

    static final class Op<T> extends DisposableReceiver<T> {
        private final SingleObserver<? super T> downstream;

        Op(SingleObserver<? super T> downstream) {
            this.downstream = downstream;
        }

        @Override
        void deliverValue(T value) {
            if (value == null) {
                downstream.onError(new NoSuchElementException("the sender completed with a null value"));
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
