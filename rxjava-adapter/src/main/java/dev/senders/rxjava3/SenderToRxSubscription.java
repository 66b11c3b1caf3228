package dev.senders.rxjava3;

import dev.senders.internal.rs.SenderSubscription;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.NoSuchElementException;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * One subscription of {@link SenderToFlowable}, {@link SenderToSingle}, {@link SenderToMaybe} or
 * {@link SenderToCompletable}: a shell over {@link SenderSubscription}, which holds the whole
 * protocol (demand, cancel/dispose, stopped, the state word). It is the {@link Subscription} of a
 * {@code Flowable}'s subscriber and the {@link Disposable} of an observer; which of the four
 * consumers it signals is a constant in the word's shell bits, so this stays one object of the
 * same size as before. Undeliverable errors go to {@link RxJavaPlugins#onError} (which wraps them
 * in {@code UndeliverableException}). The receiver's env binds only the stop token: RxJava has no
 * context.
 *
 * <table>
 * <caption>signals per consumer</caption>
 * <tr><th>consumer</th><th>{@code setValue(v)}</th><th>{@code setValue(null)}</th></tr>
 * <tr><td>Flowable</td><td>{@code onNext(v)} (after demand), {@code onComplete()}</td><td>{@code onComplete()}</td></tr>
 * <tr><td>Single</td><td>{@code onSuccess(v)}</td><td>{@code onError(NoSuchElementException)} (RxJava has no null values)</td></tr>
 * <tr><td>Maybe</td><td>{@code onSuccess(v)}</td><td>{@code onComplete()}</td></tr>
 * <tr><td>Completable</td><td>{@code onComplete()} (the value is ignored)</td><td>{@code onComplete()}</td></tr>
 * </table>
 */
final class SenderToRxSubscription<T> extends SenderSubscription<T> implements Subscription, Disposable {

    static final int FLOWABLE = 0, SINGLE = 1, MAYBE = 2, COMPLETABLE = 3;

    /** The message of a {@code Single}'s {@code NoSuchElementException} for a {@code null} value. */
    static final String NULL_FOR_SINGLE = "the sender completed with a null value";

    /** @param consumer {@link #FLOWABLE}, {@link #SINGLE}, {@link #MAYBE} or {@link #COMPLETABLE} */
    SenderToRxSubscription(Object actual, int consumer) {
        super(actual, consumer == FLOWABLE ? 0 : NO_DEMAND | VALUE_ENDS_STREAM | consumer << SHELL_SHIFT);
    }

    /** Which method of which consumer type receives each signal: see the table above. */
    @Override
    protected void signal(Object actual, int what, @Nullable Object payload) {
        signal(actual, shellBits(), what, payload, this);
    }

    /**
     * Signals {@code actual}, a consumer of the kind {@code consumer} names, as the table above
     * says ({@code subscription}: what {@code onSubscribe} hands it). Also the fused round trips'
     * ({@link RxStaged}).
     */
    static void signal(Object actual, int consumer, int what, @Nullable Object payload, Object subscription) {
        if (what == ON_SUBSCRIBE) {
            onSubscribe(actual, consumer, subscription);
        } else if (what == ON_ERROR) {
            onError(actual, consumer, (Throwable) Nulls.nonNull(payload)); // ON_ERROR carries the error
        } else if (what == ON_COMPLETE && consumer == SINGLE) {
            onError(actual, consumer, new NoSuchElementException(NULL_FOR_SINGLE));
        } else if (what == ON_NEXT && consumer != COMPLETABLE) {
            onValue(actual, consumer, Nulls.nonNull(payload)); // ON_NEXT carries a value: a null one completes empty
        } else {
            onComplete(actual, consumer); // a Completable's value is ignored: it completes
        }
    }

    @SuppressWarnings("rawtypes") // the consumer given to the constructor, of the type its kind names
    private static void onSubscribe(Object actual, int consumer, Object subscription) {
        switch (consumer) {
            case SINGLE -> ((SingleObserver) actual).onSubscribe((Disposable) subscription);
            case MAYBE -> ((MaybeObserver) actual).onSubscribe((Disposable) subscription);
            case COMPLETABLE -> ((CompletableObserver) actual).onSubscribe((Disposable) subscription);
            default -> ((Subscriber) actual).onSubscribe((Subscription) subscription);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void onValue(Object actual, int consumer, Object value) {
        if (consumer == FLOWABLE) {
            ((Subscriber) actual).onNext(value); // its onComplete follows
        } else if (consumer == SINGLE) {
            ((SingleObserver) actual).onSuccess(value);
        } else {
            ((MaybeObserver) actual).onSuccess(value);
        }
    }

    @SuppressWarnings("rawtypes")
    private static void onComplete(Object actual, int consumer) {
        if (consumer == MAYBE) {
            ((MaybeObserver) actual).onComplete();
        } else if (consumer == COMPLETABLE) {
            ((CompletableObserver) actual).onComplete();
        } else {
            ((Subscriber) actual).onComplete();
        }
    }

    @SuppressWarnings("rawtypes")
    private static void onError(Object actual, int consumer, Throwable error) {
        if (consumer == FLOWABLE) {
            ((Subscriber) actual).onError(error);
        } else if (consumer == SINGLE) {
            ((SingleObserver) actual).onError(error);
        } else if (consumer == MAYBE) {
            ((MaybeObserver) actual).onError(error);
        } else {
            ((CompletableObserver) actual).onError(error);
        }
    }

    @Override
    protected void dropError(Throwable error) {
        RxJavaPlugins.onError(error);
    }

    /** An observer's dispose: the subscription's cancel (a stop request on the sender). */
    @Override
    public void dispose() {
        cancel();
    }

    /** True once disposed, or once the sender's completion was delivered (as RxJava's observers report). */
    @Override
    public boolean isDisposed() {
        return isTerminated() || isCompleted();
    }
}
