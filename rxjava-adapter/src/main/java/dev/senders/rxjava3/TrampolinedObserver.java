package dev.senders.rxjava3;

import dev.senders.ProtocolViolationException;
import dev.senders.internal.Trampoline;
import dev.senders.internal.VarHandles;
import dev.senders.internal.rs.SenderSubscription;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * A pass-through between a deep fused round trip ({@link RxStaged}) and its consumer that breaks
 * every path with the per-thread {@link Trampoline}, so that nested crossings with operators
 * between them keep a bounded stack (the rule: {@link Trampoline#BREAK_DEPTH}).
 *
 * <p>Contract: the consumer, a {@code Single}, {@code Maybe} or {@code Completable} observer (as
 * {@code consumer} says, numbered as in {@link SenderToRxSubscription}), gets
 * {@code onSubscribe(this)} at once, before the source is subscribed, so the subscribe path and the
 * {@code onSubscribe} path do not nest each other. {@code dispose()} takes effect at once
 * ({@code isDisposed()} is then true) and disposes the source's {@code Disposable} through the
 * trampoline, or when it arrives. The signals ({@code onSuccess}, {@code onComplete},
 * {@code onError}) reach the consumer through the trampoline: inline, on the calling thread, while
 * it is shallow; otherwise queued and run on the same thread when its outermost trampoline frame
 * returns. A round trip signals once, so there is no order to keep between signals.
 */
final class TrampolinedObserver implements SingleObserver<Object>, MaybeObserver<Object>, CompletableObserver,
        Disposable {

    /*
     * upstream: null until the source's onSubscribe, then its Disposable, or DISPOSED. Whoever
     * swaps in DISPOSED disposes what was there; an onSubscribe that finds DISPOSED disposes its
     * argument, one that finds another Disposable reports the second onSubscribe (RxJava's
     * DisposableHelper protocol).
     */

    private static final Object DISPOSED = new Object();
    private static final VarHandle UPSTREAM = VarHandles.field(MethodHandles.lookup(), TrampolinedObserver.class,
            "upstream", Object.class);

    private final Object actual;
    private final int consumer;
    private volatile @Nullable Object upstream;

    /** @param consumer {@link SenderToRxSubscription#SINGLE}, {@code MAYBE} or {@code COMPLETABLE} */
    TrampolinedObserver(Object actual, int consumer) {
        this.actual = actual;
        this.consumer = consumer;
    }

    /** Gives the consumer this {@code Disposable}: before the source is subscribed. */
    void subscribeActual() {
        SenderToRxSubscription.signal(actual, consumer, SenderSubscription.ON_SUBSCRIBE, null, this);
    }

    @Override
    public void onSubscribe(Disposable d) {
        Object u = UPSTREAM.compareAndExchange(this, null, d);
        if (u != null) {
            d.dispose();
            if (u != DISPOSED) {
                RxJavaPlugins.onError(new ProtocolViolationException("the source of a round trip called "
                        + "onSubscribe twice; the second Disposable was disposed, the first is kept"));
            }
        }
    }

    @Override
    public void onSuccess(Object value) {
        Trampoline.run(TrampolinedObserver::success, this, value);
    }

    @Override
    public void onComplete() {
        Trampoline.run(TrampolinedObserver::complete, this, null);
    }

    @Override
    public void onError(Throwable error) {
        Trampoline.run(TrampolinedObserver::error, this, error);
    }

    @Override
    public void dispose() {
        Object u = UPSTREAM.getAndSet(this, DISPOSED);
        if (u != null && u != DISPOSED) {
            Trampoline.run(TrampolinedObserver::disposeUp, (Disposable) u, null);
        }
    }

    @Override
    public boolean isDisposed() {
        return upstream == DISPOSED;
    }

    private static void success(TrampolinedObserver o, Object value) {
        SenderToRxSubscription.signal(o.actual, o.consumer, SenderSubscription.ON_NEXT, value, o);
    }

    private static void complete(TrampolinedObserver o, @Nullable Object unused) {
        SenderToRxSubscription.signal(o.actual, o.consumer, SenderSubscription.ON_COMPLETE, null, o);
    }

    private static void error(TrampolinedObserver o, Throwable error) {
        SenderToRxSubscription.signal(o.actual, o.consumer, SenderSubscription.ON_ERROR, error, o);
    }

    private static void disposeUp(Disposable d, @Nullable Object unused) {
        d.dispose();
    }
}
