package dev.senders.reactor;

import dev.senders.internal.VarHandles;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.internal.SpawnedWork;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.util.context.Context;

/**
 * A fire-and-forget subscription found by {@link FireAndForget}'s hook: sits between the source
 * and Reactor's lambda subscriber (the caller's {@code Disposable}), passing every signal and
 * request through, as one piece of spawned work whose token is the tracker's
 * {@link FireAndForgetTracker.Entry} (associated with the scope in {@code TRACK}, only listed in
 * {@code REPORT}). The work ends with the source's terminal signal (after the lambda subscriber
 * got it), with the caller's {@code dispose()} (the lambda subscriber cancels this subscription),
 * or with the scope's stop (which cancels the source and disposes the lambda subscriber). In
 * {@code TRACK}, an error of a subscription given no error callback goes to the scope's error
 * handler, once, and the lambda subscriber is disposed instead of dropping it to
 * {@code Operators.onErrorDropped}; every other error reaches the lambda subscriber as without the
 * hook.
 *
 * <h2>Implementation notes</h2>
 *
 * The state machine is {@link SpawnedWork}'s, started on the hook's stack
 * ({@link SpawnedWork#startDirectInline}) before Reactor subscribes this object to the source, so
 * {@link #subscribeUpstream} does nothing. {@code upstream} follows Reactor's
 * {@code Operators.setOnce}/{@code terminate} protocol, as in {@link PublisherToSpawnedWork}:
 * {@code null}, then the subscription, or {@link PublisherToSpawnedWork#CANCELLED}; a stop that
 * came first cancels the subscription as it arrives.
 */
final class FireAndForgetSubscriber<T> extends SpawnedWork implements CoreSubscriber<T>, Subscription {

    private final CoreSubscriber<? super T> actual;
    /** TRACK, and no error callback: errors go to the scope instead of the lambda subscriber. */
    private final boolean routeErrors;
    private volatile @Nullable Subscription upstream;

    FireAndForgetSubscriber(CoreSubscriber<? super T> actual, boolean routeErrors) {
        super(0);
        this.actual = actual;
        this.routeErrors = routeErrors;
    }

    @Override
    protected void subscribeUpstream() {
        // Reactor subscribes this object to the source once the hook returned it
    }

    @Override
    protected void cancelUpstream() {
        Subscription s = (Subscription) UPSTREAM.getAndSet(this, PublisherToSpawnedWork.CANCELLED);
        if (s != null && s != PublisherToSpawnedWork.CANCELLED) {
            s.cancel();
        }
        disposeActual(); // the caller's Disposable reports disposed (a no-op when it is the one disposing)
    }

    private void disposeActual() {
        if (actual instanceof Disposable) {
            ((Disposable) actual).dispose();
        }
    }

    @Override
    protected void dropError(Throwable error) {
        Dropped.error(error, currentContext());
    }

    @Override
    public Context currentContext() {
        return actual.currentContext();
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (UPSTREAM.compareAndSet(this, null, s)) {
            actual.onSubscribe(this);
            return;
        }
        s.cancel(); // stopped or disposed before the source subscribed: never runs
        actual.onSubscribe(this);
    }

    @Override
    public void onNext(T t) {
        actual.onNext(t);
    }

    @Override
    public void onError(Throwable e) {
        UPSTREAM.setRelease(this, PublisherToSpawnedWork.CANCELLED);
        if (routeErrors) {
            upstreamTerminated(e); // the scope's handler, once
            disposeActual();
            return;
        }
        try {
            actual.onError(e);
        } finally {
            upstreamCompleted();
        }
    }

    @Override
    public void onComplete() {
        UPSTREAM.setRelease(this, PublisherToSpawnedWork.CANCELLED);
        try {
            actual.onComplete();
        } finally {
            upstreamCompleted();
        }
    }

    @Override
    public void request(long n) {
        Subscription s = upstream;
        if (s != null && s != PublisherToSpawnedWork.CANCELLED) {
            s.request(n);
        }
    }

    /** The lambda subscriber's {@code dispose()}: ends the work (cancels the source, releases). */
    @Override
    public void cancel() {
        stop();
    }

    @Override
    public String toString() {
        return "FireAndForget[" + actual + "]";
    }

    private static final VarHandle UPSTREAM = VarHandles.field(MethodHandles.lookup(), FireAndForgetSubscriber.class, "upstream", Subscription.class);
}
