package dev.senders.rxjava3;

import dev.senders.Receiver;
import dev.senders.internal.rs.PublisherOperation;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import org.reactivestreams.Subscription;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The one subscriber of every RxJava-to-sender operation ({@link RxToSender}: {@link FlowableToSender},
 * {@link SingleToSender}, {@link MaybeToSender}, {@link CompletableToSender},
 * {@link ObservableToSender}): a shell over {@link PublisherOperation}, which holds the whole
 * protocol (selections, demand, stop, the rules the source is held to, the state word). This class
 * only adapts RxJava's consumer interfaces, all five at once (their methods coincide: the value of
 * a {@code Single}/{@code Maybe} is {@code onSuccess}, a {@code Flowable}'s subscription a
 * {@link Subscription}, every other source's a {@link Disposable}), and routes what cannot be
 * delivered to {@link RxJavaPlugins#onError}, RxJava's convention.
 *
 * <p>It is a {@link FlowableSubscriber}: it is already strict (the operation checks §1.1, §1.9,
 * §2.5 and §2.13 itself and never requests {@code n <= 0}), so a {@code Flowable} subscribes it
 * directly instead of wrapping it in RxJava's {@code StrictSubscriber}, which would swallow
 * §2.13's {@code onError(null)}. A foreign {@code Publisher} gets it as a plain
 * {@code Subscriber}.
 */
final class RxToSenderOperation<T, R> extends PublisherOperation<T, R>
        implements FlowableSubscriber<T>, Observer<T>, SingleObserver<T>, MaybeObserver<T>, CompletableObserver {

    /** Selections of multi-element sources, named after RxJava's own operators. */
    static final int FIRST = PublisherOperation.FIRST;                       // firstElement()
    static final int SINGLE = PublisherOperation.SINGLE | REQUEST_TWO;       // singleElement(): empty is null
    static final int LAST = PublisherOperation.LAST;                         // lastElement()
    static final int LIST = PublisherOperation.LIST | FROZEN_LIST;           // toList(), unmodifiable
    static final int IGNORE = PublisherOperation.IGNORE;                     // ignoreElements()
    /** Flag for every source but a {@code Flowable}/{@code Publisher}: a {@code Disposable}, no demand. */
    static final int OBSERVER = NO_DEMAND;

    static final String MORE_THAN_ONE = "Sequence contains more than one element!";

    RxToSenderOperation(RxToSender<T, R> sender, int mode, Receiver<? super R> receiver) {
        super(sender, receiver, mode);
    }

    @Override
    public void onSubscribe(Subscription s) {
        upstreamSubscribe(s);
    }

    @Override
    public void onSubscribe(Disposable d) {
        upstreamSubscribe(d);
    }

    @Override
    @SuppressWarnings("unchecked") // the source is the RxToSender that connected this operation
    protected void upstream(int what, @Nullable Object subscription, long n) {
        switch (what) {
            case SUBSCRIBE -> ((RxToSender<T, R>) source()).subscribe(this);
            case REQUEST -> ((Subscription) Nulls.nonNull(subscription)).request(n); // set before REQUEST is possible
            default -> {
                if (noDemand()) {
                    ((Disposable) Nulls.nonNull(subscription)).dispose();
                } else {
                    ((Subscription) Nulls.nonNull(subscription)).cancel();
                }
            }
        }
    }

    @Override
    protected void dropError(Throwable error) {
        RxJavaPlugins.onError(error);
    }

    @Override
    protected Throwable tooManyError() {
        return new IllegalArgumentException(MORE_THAN_ONE);
    }
}
