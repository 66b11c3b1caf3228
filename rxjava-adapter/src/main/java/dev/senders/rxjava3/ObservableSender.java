package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import io.reactivex.rxjava3.core.ObservableSource;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * {@link RxSenders#fromObservable} and its variants: a multi-shot sender that subscribes to the
 * {@code Observable} on each start and completes with the value selected by its {@link Take}
 * mode. {@code FIRST} disposes the upstream as soon as the first element arrives (like
 * {@code firstElement()}); {@code SINGLE} disposes it and fails with
 * {@link IllegalArgumentException} at a second element (like {@code singleElement()}). Errors and
 * stop as in {@link SingleSender}.
 *
 * <p>Observable contract relied on: {@code onNext}/{@code onError}/{@code onComplete} are
 * serialized, so the accumulator fields are plain. An {@code onNext} after {@code onComplete} is
 * reported to {@code RxJavaPlugins.onError} as a protocol violation; one after our own dispose is
 * expected (dispose is asynchronous) and ignored.
 */
final class ObservableSender<T, R> implements Sender<R> {

    private final ObservableSource<T> source;
    private final Take take;

    ObservableSender(ObservableSource<T> source, Take take) {
        this.source = source;
        this.take = take;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Operation<>(source, take, Objects.requireNonNull(receiver, "receiver"));
    }

    static final class Operation<T, R> extends RxSourceOperation<R> implements Observer<T> {
        private final ObservableSource<T> source;
        private final Take take;
        private T last;           // SINGLE, LAST
        private List<T> list;     // LIST

        Operation(ObservableSource<T> source, Take take, Receiver<? super R> receiver) {
            super(receiver);
            this.source = source;
            this.take = take;
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
        public void onNext(T t) {
            if (isDone()) {
                if (isTerminatedByUpstream()) {
                    reportAfterTerminal("onNext");
                }
                return; // after our own dispose: expected, ignored
            }
            if (t == null) {
                if (claimAndDispose()) {
                    completeClaimedError(new NullPointerException("Observable.onNext called with null"));
                }
                return;
            }
            switch (take) {
                case FIRST:
                    if (claimAndDispose()) {
                        completeClaimedValue((R) t);
                    }
                    break;
                case SINGLE:
                    if (last != null) {
                        last = null;
                        if (claimAndDispose()) {
                            completeClaimedError(new IllegalArgumentException(Take.MORE_THAN_ONE));
                        }
                    } else {
                        last = t;
                    }
                    break;
                case LAST:
                    last = t;
                    break;
                case LIST:
                    if (list == null) {
                        list = new ArrayList<>();
                    }
                    list.add(t);
                    break;
                default: // IGNORE
                    break;
            }
        }

        @Override
        public void onError(Throwable e) {
            last = null;
            list = null;
            upstreamError(e);
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onComplete() {
            R result;
            switch (take) {
                case SINGLE:
                case LAST:
                case FIRST:
                    result = (R) last;
                    last = null;
                    break;
                case LIST:
                    result = (R) (list == null ? List.of() : Collections.unmodifiableList(list));
                    list = null;
                    break;
                default:
                    result = null;
            }
            upstreamValue(result);
        }
    }
}
