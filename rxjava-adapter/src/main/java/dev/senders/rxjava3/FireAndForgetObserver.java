package dev.senders.rxjava3;

import dev.senders.scope.internal.FireAndForgetWork;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A fire-and-forget subscription found by {@link FireAndForget}'s plugin hooks, for any of the five
 * RxJava types: sits between the source and RxJava's lambda observer (the caller's
 * {@code Disposable}), passing every signal (and, for a {@code Flowable}, every request) through.
 * What the work is, how it ends and where errors go: {@link FireAndForgetWork}; this class is
 * RxJava's signal plumbing only. The adapter bits say which of the five observer interfaces
 * {@code actual} is ({@link #COMPLETABLE} ... {@link #FLOWABLE}); an error nobody can take any more
 * goes to {@code RxJavaPlugins.onError}, as RxJava's lambda observers do.
 */
final class FireAndForgetObserver extends FireAndForgetWork implements Disposable, Subscription,
        CompletableObserver, SingleObserver<Object>, MaybeObserver<Object>, Observer<Object>,
        FlowableSubscriber<Object> {

    static final int COMPLETABLE = RxToSpawnedWork.COMPLETABLE;
    static final int SINGLE = RxToSpawnedWork.SINGLE;
    static final int MAYBE = RxToSpawnedWork.MAYBE;
    static final int OBSERVABLE = RxToSpawnedWork.OBSERVABLE;
    static final int FLOWABLE = RxToSpawnedWork.FLOWABLE;

    private static final String[] KINDS = {"Completable.subscribe", "Single.subscribe", "Maybe.subscribe",
        "Observable.subscribe", "Flowable.subscribe"};

    private final Object actual;

    /**
     * @param actual the lambda observer
     * @param type which of the five types was subscribed
     * @param routeErrors tracked, and no error callback: errors go to the scope
     */
    FireAndForgetObserver(Object actual, int type, boolean routeErrors) {
        super((routeErrors ? ROUTE_ERRORS : 0) | type << ADAPTER_SHIFT);
        this.actual = actual;
    }

    private int type() {
        return adapterBits();
    }

    @Override
    public String kind() {
        return KINDS[type()];
    }

    @Override
    protected void cancel(Object upstream) {
        if (upstream instanceof Disposable) {
            ((Disposable) upstream).dispose();
        } else {
            ((Subscription) upstream).cancel();
        }
    }

    @Override
    protected void dropError(Throwable error) {
        RxJavaPlugins.onError(error); // after dispose: undeliverable, as RxJava's lambda observers do
    }

    /** The caller's {@code Disposable}: every lambda observer the hooks wrap is one. */
    @Override
    protected void disposeActual() {
        ((Disposable) actual).dispose();
    }

    // ---- upstream signals

    @Override
    public void onSubscribe(Disposable d) {
        upstreamArrived(d);
        switch (type()) {
            case COMPLETABLE: ((CompletableObserver) actual).onSubscribe(this); break;
            case SINGLE: ((SingleObserver<?>) actual).onSubscribe(this); break;
            case MAYBE: ((MaybeObserver<?>) actual).onSubscribe(this); break;
            default: ((Observer<?>) actual).onSubscribe(this); break;
        }
    }

    @Override
    public void onSubscribe(Subscription s) {
        upstreamArrived(s);
        ((Subscriber<?>) actual).onSubscribe(this);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onSuccess(Object value) {
        terminating();
        try {
            if (type() == SINGLE) {
                ((SingleObserver<Object>) actual).onSuccess(value);
            } else {
                ((MaybeObserver<Object>) actual).onSuccess(value);
            }
        } finally {
            upstreamCompleted();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onNext(Object t) {
        if (type() == FLOWABLE) {
            ((Subscriber<Object>) actual).onNext(t);
        } else {
            ((Observer<Object>) actual).onNext(t);
        }
    }

    @Override
    public void onComplete() {
        terminating();
        try {
            switch (type()) {
                case COMPLETABLE: ((CompletableObserver) actual).onComplete(); break;
                case MAYBE: ((MaybeObserver<?>) actual).onComplete(); break;
                case OBSERVABLE: ((Observer<?>) actual).onComplete(); break;
                case FLOWABLE: ((Subscriber<?>) actual).onComplete(); break;
                default: break; // a Single has no onComplete
            }
        } finally {
            upstreamCompleted();
        }
    }

    @Override
    public void onError(Throwable e) {
        if (routedToScope(e)) {
            return;
        }
        try {
            switch (type()) {
                case COMPLETABLE: ((CompletableObserver) actual).onError(e); break;
                case SINGLE: ((SingleObserver<?>) actual).onError(e); break;
                case MAYBE: ((MaybeObserver<?>) actual).onError(e); break;
                case OBSERVABLE: ((Observer<?>) actual).onError(e); break;
                default: ((Subscriber<?>) actual).onError(e); break;
            }
        } finally {
            upstreamCompleted();
        }
    }

    // ---- the lambda observer's handle on this subscription

    /** The lambda observer's {@code dispose()}: ends the work (disposes the source, releases). */
    @Override
    public void dispose() {
        stop();
    }

    // isDisposed(): SpawnedWork's

    @Override
    public void request(long n) {
        Object u = upstream();
        if (u instanceof Subscription) {
            ((Subscription) u).request(n);
        }
    }

    @Override
    public void cancel() {
        stop();
    }
}
