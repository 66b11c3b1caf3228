package dev.senders.rxjava3;

import dev.senders.internal.VarHandles;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.internal.SpawnedWork;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A fire-and-forget subscription found by {@link FireAndForget}'s plugin hooks, for any of the five
 * RxJava types: sits between the source and RxJava's lambda observer (the caller's
 * {@code Disposable}), passing every signal (and, for a {@code Flowable}, every request) through,
 * as one piece of spawned work whose token is the tracker's {@link FireAndForgetTracker.Entry}
 * (associated with the scope in {@code TRACK}, only listed in {@code REPORT}). The work ends with
 * the source's terminal signal (after the lambda observer got it), with the caller's
 * {@code dispose()} (the lambda observer disposes this object), or with the scope's stop (which
 * disposes the source and the lambda observer). In {@code TRACK}, an error of a subscription given
 * no error callback goes to the scope's error handler, once, and the lambda observer is disposed
 * instead of passing an {@code OnErrorNotImplementedException} to {@code RxJavaPlugins.onError};
 * every other error reaches the lambda observer as without the hook.
 *
 * <h2>Implementation notes</h2>
 *
 * The state machine is {@link SpawnedWork}'s, started on the hook's stack
 * ({@link SpawnedWork#startDirectInline}) before RxJava subscribes this object to the source, so
 * {@link #subscribeUpstream} does nothing. {@code upstream} follows the
 * {@code DisposableHelper}/{@code SubscriptionHelper} protocol, as in {@link RxToSpawnedWork}:
 * {@code null}, then the source's {@code Disposable} or {@code Subscription}, or {@link #DISPOSED};
 * a stop that came first disposes what arrives. {@code type} says which of the five observer
 * interfaces {@code actual} is.
 */
final class FireAndForgetObserver extends SpawnedWork implements Disposable, Subscription,
        CompletableObserver, SingleObserver<Object>, MaybeObserver<Object>, Observer<Object>,
        FlowableSubscriber<Object> {

    static final int COMPLETABLE = RxToSpawnedWork.COMPLETABLE;
    static final int SINGLE = RxToSpawnedWork.SINGLE;
    static final int MAYBE = RxToSpawnedWork.MAYBE;
    static final int OBSERVABLE = RxToSpawnedWork.OBSERVABLE;
    static final int FLOWABLE = RxToSpawnedWork.FLOWABLE;

    private static final Object DISPOSED = new Object();

    private final Object actual;
    private final int type;
    /** TRACK, and no error callback: errors go to the scope instead of the lambda observer. */
    private final boolean routeErrors;
    private volatile @Nullable Object upstream;

    FireAndForgetObserver(Object actual, int type, boolean routeErrors) {
        super(0);
        this.actual = actual;
        this.type = type;
        this.routeErrors = routeErrors;
    }

    @Override
    protected void subscribeUpstream() {
        // RxJava subscribes this object to the source once the hook returned it
    }

    @Override
    protected void cancelUpstream() {
        end(UPSTREAM.getAndSet(this, DISPOSED));
        disposeActual(); // the caller's Disposable reports disposed (a no-op when it is the one disposing)
    }

    private static void end(@Nullable Object u) {
        if (u instanceof Disposable) {
            ((Disposable) u).dispose();
        } else if (u instanceof Subscription) {
            ((Subscription) u).cancel();
        }
    }

    private void disposeActual() {
        if (actual instanceof Disposable) {
            ((Disposable) actual).dispose();
        }
    }

    @Override
    protected void dropError(Throwable error) {
        RxJavaPlugins.onError(error); // after dispose: undeliverable, as RxJava's lambda observers do
    }

    // ---- upstream signals

    @Override
    public void onSubscribe(Disposable d) {
        if (!UPSTREAM.compareAndSet(this, null, d)) {
            d.dispose(); // stopped or disposed before the source subscribed: never runs
        }
        switch (type) {
            case COMPLETABLE: ((CompletableObserver) actual).onSubscribe(this); break;
            case SINGLE: ((SingleObserver<?>) actual).onSubscribe(this); break;
            case MAYBE: ((MaybeObserver<?>) actual).onSubscribe(this); break;
            default: ((Observer<?>) actual).onSubscribe(this); break;
        }
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (!UPSTREAM.compareAndSet(this, null, s)) {
            s.cancel();
        }
        ((Subscriber<?>) actual).onSubscribe(this);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onSuccess(Object value) {
        UPSTREAM.setRelease(this, DISPOSED);
        try {
            if (type == SINGLE) {
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
        if (type == FLOWABLE) {
            ((Subscriber<Object>) actual).onNext(t);
        } else {
            ((Observer<Object>) actual).onNext(t);
        }
    }

    @Override
    public void onError(Throwable e) {
        UPSTREAM.setRelease(this, DISPOSED);
        if (routeErrors) {
            upstreamTerminated(e); // the scope's handler, once
            disposeActual();
            return;
        }
        try {
            switch (type) {
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

    @Override
    public void onComplete() {
        UPSTREAM.setRelease(this, DISPOSED);
        try {
            switch (type) {
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

    // ---- the lambda observer's handle on this subscription

    /** The lambda observer's {@code dispose()}: ends the work (disposes the source, releases). */
    @Override
    public void dispose() {
        stop();
    }

    // isDisposed(): SpawnedWork's

    @Override
    public void request(long n) {
        Object u = upstream;
        if (u instanceof Subscription) {
            ((Subscription) u).request(n);
        }
    }

    @Override
    public void cancel() {
        stop();
    }

    @Override
    public String toString() {
        return "FireAndForget[" + actual + "]";
    }

    private static final VarHandle UPSTREAM = VarHandles.field(MethodHandles.lookup(), FireAndForgetObserver.class, "upstream", Object.class);
}
