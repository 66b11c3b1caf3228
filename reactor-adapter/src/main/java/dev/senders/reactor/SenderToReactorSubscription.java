package dev.senders.reactor;

import dev.senders.Env;
import dev.senders.Query;
import dev.senders.internal.rs.SenderSubscription;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;

/**
 * One subscription of {@link SenderToMono} (which {@code toFlux} views as a {@code Flux}): a shell over
 * {@link SenderSubscription}, which holds the whole protocol (demand, cancel, stopped, the state
 * word). This class adapts the Reactive Streams interfaces, routes what cannot be delivered to
 * Reactor's hooks with the subscriber's context ({@code onErrorDropped}, {@code onDiscard}), and
 * answers the env: the stop token is this subscription, {@link ReactorSenders#CONTEXT} the
 * subscriber's context, every other query the env that rode in on that context
 * ({@link ReactorSenders#outerEnv}).
 */
final class SenderToReactorSubscription<T> extends SenderSubscription<T> implements Subscription, Scannable {

    private final Context context;

    SenderToReactorSubscription(CoreSubscriber<? super T> actual) {
        super(actual, 0);
        this.context = actual.currentContext();
    }

    /** The context the subscriber gave (what {@link ReactorSenders#contextOf} hands to an inner publisher). */
    Context context() {
        return context;
    }

    @Override
    @SuppressWarnings("unchecked") // actual is the CoreSubscriber<? super T> given to the constructor
    protected void signal(Object actual, int what, @Nullable Object payload) {
        CoreSubscriber<Object> s = (CoreSubscriber<Object>) actual;
        switch (what) {
            case ON_SUBSCRIBE -> s.onSubscribe(this);
            case ON_NEXT -> s.onNext(payload);
            case ON_COMPLETE -> s.onComplete();
            default -> s.onError((Throwable) payload);
        }
    }

    @Override
    protected void dropError(Throwable error) {
        Dropped.error(error, context);
    }

    @Override
    protected void discard(@Nullable Object value) {
        Dropped.discard(value, context);
    }

    @Override
    @SuppressWarnings("unchecked") // each query's value has the query's type
    protected <V> @Nullable V lookup(Query<V> query) {
        if (query == ReactorSenders.CONTEXT) {
            return (V) context;
        }
        Env outer = ReactorSenders.outerEnv(context);
        return outer == null ? query.defaultValue() : outer.get(query);
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public @Nullable Object scanUnsafe(Attr key) {
        if (key == Attr.ACTUAL) {
            return downstream();
        }
        if (key == Attr.CANCELLED) {
            return isCancelled();
        }
        if (key == Attr.TERMINATED) {
            return isCompleted();
        }
        if (key == Attr.BUFFERED) {
            return hasPendingValue() ? 1 : 0;
        }
        if (key == Attr.PREFETCH) {
            return 1; // at most one value is ever held
        }
        if (key == Attr.RUN_STYLE) {
            return Attr.RunStyle.ASYNC;
        }
        return null; // PARENT: the upstream is a sender, not a Scannable
    }

    @Override
    public String stepName() {
        return "sender";
    }
}
