package dev.senders.reactor;

import dev.senders.scope.internal.FireAndForgetWork;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.util.context.Context;

/**
 * A fire-and-forget subscription found by {@link FireAndForget}'s hook: sits between the source
 * and Reactor's lambda subscriber (the caller's {@code Disposable}), passing every signal and
 * request through. What the work is, how it ends and where errors go: {@link FireAndForgetWork};
 * this class is Reactor's signal plumbing only. The adapter bit ({@link #FLUX}) says whether a
 * {@code Flux} or a {@code Mono} was subscribed.
 */
final class FireAndForgetSubscriber<T> extends FireAndForgetWork implements CoreSubscriber<T>, Subscription {

    /** Adapter bit: a {@code Flux} was subscribed (else a {@code Mono}). */
    static final int FLUX = 1;

    private final CoreSubscriber<? super T> actual;

    /**
     * @param actual the lambda subscriber
     * @param routeErrors tracked, and no error callback: errors go to the scope
     * @param flux whether a {@code Flux} was subscribed
     */
    FireAndForgetSubscriber(CoreSubscriber<? super T> actual, boolean routeErrors, boolean flux) {
        super((routeErrors ? ROUTE_ERRORS : 0) | (flux ? FLUX << ADAPTER_SHIFT : 0));
        this.actual = actual;
    }

    @Override
    public String kind() {
        return adapterBits() == FLUX ? "Flux.subscribe" : "Mono.subscribe";
    }

    @Override
    protected void cancel(Object upstream) {
        ((Subscription) upstream).cancel();
    }

    /** Reactor's lambda subscribers (the only ones the hook wraps) are the caller's {@code Disposable}. */
    @Override
    protected void disposeActual() {
        ((Disposable) actual).dispose();
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
        upstreamArrived(s);
        actual.onSubscribe(this);
    }

    @Override
    public void onNext(T t) {
        actual.onNext(t);
    }

    @Override
    public void onError(Throwable e) {
        if (routedToScope(e)) {
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
        terminating();
        try {
            actual.onComplete();
        } finally {
            upstreamCompleted();
        }
    }

    @Override
    public void request(long n) {
        @Nullable Object s = upstream();
        if (s != null) {
            ((Subscription) s).request(n);
        }
    }

    /** The lambda subscriber's {@code dispose()}: ends the work (cancels the source, releases). */
    @Override
    public void cancel() {
        stop();
    }
}
