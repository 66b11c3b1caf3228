package dev.senders.rxjava3;

import dev.senders.ProtocolViolationException;
import dev.senders.scope.internal.SpawnedWork;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Subscription;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The work behind {@link RxScopes#spawn}: one object that is the RxJava
 * observer/subscriber of the source, the association with the scope and the stop registration on
 * its stop token ({@link SpawnedWork}, which also decides between the direct path and
 * {@code Scopes.spawn}), and the {@link Disposable} returned to the caller. Values and elements
 * are discarded; the work ends with the source's success/completion (done), its error (the scope's
 * error handler chain; a {@link CancellationException} is stopped), {@link #dispose()} or a stop
 * request on the scope (stopped, after the upstream was disposed). Which RxJava type the source is
 * is kept in {@code SpawnedWork}'s subclass bits.
 *
 * <h2>Implementation notes</h2>
 *
 * <p>{@code upstream} follows the {@code DisposableHelper}/{@code SubscriptionHelper} protocol:
 * {@code null} until {@code onSubscribe}, then the source's {@code Disposable} or
 * {@code Subscription}, or {@link #DISPOSED}; whoever swaps in {@code DISPOSED} disposes/cancels
 * what was there; an {@code onSubscribe} that finds {@code DISPOSED} disposes its argument (and one
 * that finds another upstream reports the second {@code onSubscribe}). The dispose/stop paths
 * dispose the upstream <em>before</em> completing, so the count is released after the source was
 * told to stop.
 *
 * <p>For a {@code Flowable} the subscriber is a {@link FlowableSubscriber} that requests
 * {@code Long.MAX_VALUE} in {@code onSubscribe}, exactly what {@code Flowable.subscribe(Consumer...)}
 * (RxJava's {@code LambdaSubscriber}) does; a concurrent {@code dispose()} may cancel while that
 * request runs, which RxJava's {@code Subscription}s allow.
 */
final class RxToSpawnedWork extends SpawnedWork implements Disposable,
        CompletableObserver, SingleObserver<Object>, MaybeObserver<Object>, Observer<Object>,
        FlowableSubscriber<Object> {

    static final int COMPLETABLE = 0;
    static final int SINGLE = 1;
    static final int MAYBE = 2;
    static final int OBSERVABLE = 3;
    static final int FLOWABLE = 4;

    private static final Object DISPOSED = new Object();

    /** Cleared once subscribed: a finished work kept briefly by the stop source holds no user object. */
    private @Nullable Object source;
    private volatile @Nullable Object upstream;

    RxToSpawnedWork(Object source, int kind) {
        super(kind);
        this.source = source;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void subscribeUpstream() {
        Object source = Nulls.nonNull(this.source); // subscribed once
        this.source = null;
        switch (subclassBits()) {
            case COMPLETABLE:
                ((Completable) source).subscribe((CompletableObserver) this);
                break;
            case SINGLE:
                ((Single<Object>) source).subscribe((SingleObserver<Object>) this);
                break;
            case MAYBE:
                ((Maybe<Object>) source).subscribe((MaybeObserver<Object>) this);
                break;
            case OBSERVABLE:
                ((Observable<Object>) source).subscribe((Observer<Object>) this);
                break;
            default:
                ((Flowable<Object>) source).subscribe((FlowableSubscriber<Object>) this);
                break;
        }
    }

    @Override
    protected void cancelUpstream() {
        Object u = UPSTREAM.getAndSet(this, DISPOSED);
        if (u instanceof Disposable) {
            ((Disposable) u).dispose();
        } else if (u instanceof Subscription) {
            ((Subscription) u).cancel();
        }
    }

    /** RxJava wraps what {@code subscribeActual} threw (a scheduler's rejection, say) in an NPE: the cause is the failure. */
    @Override
    protected Throwable subscribeFailure(Throwable t) {
        return t instanceof NullPointerException && t.getCause() != null ? t.getCause() : t;
    }

    @Override
    protected void dropError(Throwable error) {
        RxJavaPlugins.onError(error); // after dispose: undeliverable, as LambdaObserver does
    }

    // ---- Disposable (isDisposed() is SpawnedWork's: true once the work ended for any reason)

    @Override
    public void dispose() {
        stop();
    }

    // ---- observer / subscriber

    @Override
    public void onSubscribe(Disposable d) {
        if (d == null || !UPSTREAM.compareAndSet(this, null, d)) {
            badSubscribe(d);
        }
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (s != null && UPSTREAM.compareAndSet(this, null, s)) {
            s.request(Long.MAX_VALUE);
        } else {
            badSubscribe(s);
        }
    }

    /** A null upstream (the work fails; NPE thrown, RxJava's contract), or a second one (disposed, reported). */
    private void badSubscribe(Object u) {
        if (u == null) {
            NullPointerException npe = new NullPointerException("onSubscribe called with a null Disposable/Subscription");
            fail(npe); // the work must still end, so that a join does not wait for a broken source
            throw npe;
        }
        if (u instanceof Disposable) {
            ((Disposable) u).dispose();
        } else {
            ((Subscription) u).cancel();
        }
        reportDoubleSubscribe();
    }

    private void reportDoubleSubscribe() {
        if (upstream != DISPOSED) {
            RxJavaPlugins.onError(new ProtocolViolationException(
                    "onSubscribe called twice (RxJava Observer contract): the second one was disposed"));
        }
    }

    @Override
    public void onNext(Object element) {
        // spawned work's elements are discarded, as Flowable.subscribe() without consumers does
        checkStopWhileSubscribing(); // a synchronous source of many elements: a stop disposes it now
    }

    @Override
    public void onSuccess(Object value) {
        onComplete();
    }

    @Override
    public void onComplete() {
        UPSTREAM.setRelease(this, DISPOSED); // nothing left to dispose: drops the reference (no fence)
        upstreamCompleted();
    }

    @Override
    public void onError(Throwable error) {
        if (error == null) {
            error = new NullPointerException("onError called with a null Throwable");
        }
        UPSTREAM.setRelease(this, DISPOSED);
        upstreamTerminated(error);
    }

    @Override
    public String toString() {
        return "RxScopes.spawn[" + (isDisposed() ? "disposed" : "active") + "]";
    }

    private static final VarHandle UPSTREAM = VarHandles.field(MethodHandles.lookup(), RxToSpawnedWork.class, "upstream", Object.class);
}
