package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Subscription;

/**
 * The work behind {@link RxScopes#spawn}: one object that is at once the single-shot
 * {@link Sender} handed to {@link dev.senders.scope.Scopes#spawn}, its {@link OperationState}, the
 * RxJava observer/subscriber of the source, the stop callback, and the {@link Disposable} returned to
 * the caller. Values and elements are discarded; the receiver (the scope's spawn receiver, behind
 * the token's {@code wrap}) is completed exactly once: {@code setValue(null)} on the source's
 * success/completion, {@code setError(e)} on its error ({@code setStopped()} for a
 * {@link CancellationException}), {@code setStopped()} after {@link #dispose()} or a stop request
 * on the receiver's token. The spawn receiver dissociates from the scope when completed.
 *
 * <h2>Implementation notes</h2>
 *
 * <p>{@code state}: {@link #SUBSCRIBING} while {@code start()} subscribes the source, then
 * {@link #ACTIVE}; it ends in {@link #DONE}, reached by exactly one winner of a CAS among the
 * completion paths (terminal signal, {@code dispose()}, stop callback), and only the winner
 * completes the receiver, so the scope's association is released exactly once. A stop or dispose
 * that comes while the state is still {@code SUBSCRIBING} (the scope's {@code requestStop()} on
 * another thread) moves it to {@link #STOP_PENDING} and disposes whatever upstream there is, but
 * leaves the stopped completion to {@code start()}, which delivers it once {@code subscribe} has
 * returned: the association is never released while the source is still being subscribed. A
 * terminal signal during {@code SUBSCRIBING} (a synchronous source) completes at once.
 * {@code isDisposed()} is {@code state >= STOP_PENDING}, like RxJava's lambda observers (disposed
 * after termination too).
 *
 * <p>{@code upstream} follows the {@code DisposableHelper}/{@code SubscriptionHelper} protocol:
 * {@code null} until {@code onSubscribe}, then the source's {@code Disposable} or
 * {@code Subscription}, or {@link #DISPOSED}; whoever swaps in {@code DISPOSED} disposes/cancels
 * what was there; an {@code onSubscribe} that finds {@code DISPOSED} disposes its argument. The
 * dispose/stop paths dispose the upstream <em>before</em> completing the receiver, so the count is
 * released after the source was told to stop.
 *
 * <p>For a {@code Flowable} the subscriber is a {@link FlowableSubscriber} that requests
 * {@code Long.MAX_VALUE} in {@code onSubscribe}, exactly what {@code Flowable.subscribe(Consumer...)}
 * (RxJava's {@code LambdaSubscriber}) does; a concurrent {@code dispose()} may cancel while that
 * request runs, which RxJava's {@code Subscription}s allow.
 *
 * <p>{@code receiver} and {@code stopCallback} are plain fields: both are written in
 * {@code connect}/{@code start} on the spawning thread before the source is subscribed and before
 * {@code spawn} returns this object, which publishes them to the observer's threads and to any
 * thread the caller hands the {@code Disposable} to. The stop callback ({@link #run()}) may start
 * before {@code stopCallback} is assigned and therefore never touches it (the stop source
 * unregisters a callback it runs).
 */
final class RxSpawn implements Sender<Object>, OperationState, Runnable, Disposable,
        CompletableObserver, SingleObserver<Object>, MaybeObserver<Object>, Observer<Object>,
        FlowableSubscriber<Object> {

    static final byte COMPLETABLE = 0;
    static final byte SINGLE = 1;
    static final byte MAYBE = 2;
    static final byte OBSERVABLE = 3;
    static final byte FLOWABLE = 4;

    private static final int SUBSCRIBING = 0;
    private static final int ACTIVE = 1;
    private static final int STOP_PENDING = 2;
    private static final int DONE = 3;

    private static final Object DISPOSED = new Object();

    private final Object source;
    private final byte kind;
    private Receiver<? super Object> receiver;
    private StopCallback stopCallback;
    private volatile int state;
    private volatile Object upstream;

    RxSpawn(Object source, byte kind) {
        this.source = source;
        this.kind = kind;
    }

    // ---- Sender / OperationState (driven by Scopes.spawn on the calling thread) ----

    @Override
    public OperationState connect(Receiver<? super Object> r) {
        if (receiver != null) {
            throw new IllegalStateException("RxScopes.spawn's sender is single-shot");
        }
        receiver = r;
        return this;
    }

    @Override
    public void start() {
        StopToken token = receiver.env().stopToken();
        if (token.stopRequested()) { // the scope's stop came first: never subscribe
            state = DONE;
            upstream = DISPOSED;
            Signals.setStopped(receiver);
            return;
        }
        if (token.stopPossible()) {
            stopCallback = token.onStop(this);
        }
        if (state == SUBSCRIBING) { // else the callback already ran (STOP_PENDING): do not subscribe
            try {
                subscribeUpstream();
            } catch (Throwable t) { // subscribe must not throw (RxJava contract); deliver what it threw
                Signals.throwIfFatal(t);
                // RxJava wraps what subscribeActual threw (e.g. a scheduler's RejectedExecutionException) in an NPE
                t = t instanceof NullPointerException && t.getCause() != null ? t.getCause() : t;
                if (claim()) {
                    disposeUpstream();
                    Signals.setError(receiver, t);
                    return;
                }
                RxJavaPlugins.onError(t);
            }
            if (STATE.compareAndSet(this, SUBSCRIBING, ACTIVE)) {
                return; // running; a terminal signal, dispose() or the stop callback will complete
            }
        }
        // DONE (a synchronous terminal signal completed already) or STOP_PENDING (ours to complete)
        if (STATE.compareAndSet(this, STOP_PENDING, DONE)) {
            closeStopCallback();
            Signals.setStopped(receiver);
        }
    }

    @SuppressWarnings("unchecked")
    private void subscribeUpstream() {
        switch (kind) {
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

    // ---- stop callback and Disposable ----

    /** The stop callback (the scope's {@code requestStop()}): dispose upstream, complete stopped. */
    @Override
    public void run() {
        stop(false);
    }

    @Override
    public void dispose() {
        stop(true);
    }

    /**
     * Disposes the upstream and completes stopped, or, while {@code start()} is still subscribing,
     * leaves the completion to it. Only {@code dispose()} closes the stop callback: the callback
     * itself ({@code run}) may run before {@code start()} assigned the field.
     */
    private void stop(boolean closeCallback) {
        for (;;) {
            int s = state;
            if (s == ACTIVE) {
                if (STATE.compareAndSet(this, ACTIVE, DONE)) {
                    if (closeCallback) {
                        closeStopCallback();
                    }
                    disposeUpstream();
                    Signals.setStopped(receiver);
                    return;
                }
            } else if (s == SUBSCRIBING) {
                if (STATE.compareAndSet(this, SUBSCRIBING, STOP_PENDING)) {
                    disposeUpstream(); // start() completes stopped when subscribe returns
                    return;
                }
            } else {
                return; // STOP_PENDING or DONE: someone else completes, or completed
            }
        }
    }

    @Override
    public boolean isDisposed() {
        return state >= STOP_PENDING;
    }

    // ---- observer / subscriber ----

    @Override
    public void onSubscribe(Disposable d) {
        if (d == null) {
            throw new NullPointerException("onSubscribe called with a null Disposable");
        }
        if (!UPSTREAM.compareAndSet(this, null, d)) {
            d.dispose();
            reportDoubleSubscribe();
        }
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (s == null) {
            throw new NullPointerException("onSubscribe called with a null Subscription");
        }
        if (UPSTREAM.compareAndSet(this, null, s)) {
            s.request(Long.MAX_VALUE);
        } else {
            s.cancel();
            reportDoubleSubscribe();
        }
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
    }

    @Override
    public void onSuccess(Object value) {
        terminated();
    }

    @Override
    public void onComplete() {
        terminated();
    }

    private void terminated() {
        if (claim()) {
            upstream = DISPOSED; // nothing left to dispose; drops the reference
            Signals.setValue(receiver, null);
        }
    }

    @Override
    public void onError(Throwable error) {
        if (error == null) {
            error = new NullPointerException("onError called with a null Throwable");
        }
        if (claim()) {
            upstream = DISPOSED;
            if (error instanceof CancellationException) {
                Signals.setStopped(receiver);
            } else {
                Signals.setError(receiver, error); // the scope's error handler chain
            }
        } else {
            RxJavaPlugins.onError(error); // after dispose: undeliverable, as LambdaObserver does
        }
    }

    // ---- helpers ----

    /**
     * Claims the completion for a terminal signal or a failed subscribe (from {@code SUBSCRIBING}
     * or {@code ACTIVE}) and deregisters the stop callback (P2300: before completing).
     */
    private boolean claim() {
        for (;;) {
            int s = state;
            if (s != SUBSCRIBING && s != ACTIVE) {
                return false;
            }
            if (STATE.compareAndSet(this, s, DONE)) {
                closeStopCallback();
                return true;
            }
        }
    }

    private void closeStopCallback() {
        StopCallback c = stopCallback;
        if (c != null) {
            stopCallback = null;
            c.close();
        }
    }

    private void disposeUpstream() {
        Object u = UPSTREAM.getAndSet(this, DISPOSED);
        if (u instanceof Disposable) {
            ((Disposable) u).dispose();
        } else if (u instanceof Subscription) {
            ((Subscription) u).cancel();
        }
    }

    @Override
    public String toString() {
        return "RxScopes.spawn[" + (isDisposed() ? "disposed" : "active") + "]";
    }

    private static final VarHandle STATE;
    private static final VarHandle UPSTREAM;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(RxSpawn.class, "state", int.class);
            UPSTREAM = l.findVarHandle(RxSpawn.class, "upstream", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
