package dev.senders.rxjava3;

import dev.senders.internal.SubscriptionStop;
import dev.senders.internal.Trampoline;
import dev.senders.Env;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.StopToken;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;

/**
 * The receiver behind {@link RxSenders#toSingle}, {@code toMaybe} and {@code toCompletable}: it is
 * both the sender's receiver and the {@link Disposable} handed to the RxJava observer.
 * {@code dispose()} requests stop on the receiver's own token (this object: a
 * {@link SubscriptionStop}, whose first stop callback lives in a field, and the receiver's whole
 * {@link Env}, which binds nothing but that token); the sender's completion is forwarded to the observer unless it was disposed.
 *
 * <h2>Implementation notes</h2>
 *
 * One state word with two bits, each set once with {@code getAndBitwiseOr}: {@link #COMPLETED}
 * (the sender completed) and {@link #DISPOSED} (the observer disposed). The first of the two to be
 * set decides: completion first = deliver to the observer; dispose first = request stop, and the
 * completion that follows is dropped, except an error, which is undeliverable and goes to
 * {@link RxJavaPlugins#onError} (RxJava wraps it in {@code UndeliverableException}). A second
 * completion (COMPLETED already set) is the sender breaking P2300's exactly-once rule, reported
 * there as a {@link ProtocolViolationException}. {@code setValue} never throws: an observer that
 * throws from {@code onSuccess}/{@code onComplete} breaks RxJava's contract, and its exception
 * goes to {@code RxJavaPlugins.onError} as {@code LambdaObserver} does (so the sender does not
 * re-signal it as an error, which would be a second terminal signal).
 *
 * <p>RxJava protocol relied on: {@code onSubscribe} is called (by the subclass) before the
 * operation starts, so no terminal signal can precede it; {@code dispose()} may be called from any
 * thread, any number of times.
 */
abstract class DisposableReceiver<T> extends SubscriptionStop implements Receiver<T>, Env, Disposable {

    static final int COMPLETED = 1;
    static final int DISPOSED = 2;

    private volatile int state;

    /** The value ({@code null} = empty) reached a live observer. */
    abstract void deliverValue(T value);

    /** The error reached a live observer. */
    abstract void deliverError(Throwable error);

    @Override
    public final Env env() {
        return this;
    }

    @Override
    @SuppressWarnings("unchecked") // the stop token query's type
    public final <V> V get(Query<V> query) {
        return query == Query.STOP_TOKEN ? (V) this : query.defaultValue();
    }

    @Override
    public final StopToken stopToken() {
        return this;
    }

    /*
     * The observer's terminal signal, and the stop request of a dispose, go through the per-thread
     * Trampoline: inline while shallow, queued on this thread beyond its depth, so that a Single
     * nested in a sender nested in a Single, thousands of levels deep, completes (or is disposed)
     * without one set of frames per level.
     */

    @Override
    public final void setValue(T value) {
        if (begin(null)) {
            Trampoline.run(DisposableReceiver::valueNow, this, value);
        }
    }

    private void stopNow(Object unused) {
        requestStop();
    }

    private void valueNow(T value) {
        try {
            deliverValue(value);
        } catch (Throwable t) {
            Exceptions.throwIfFatal(t);
            RxJavaPlugins.onError(t);
        }
    }

    @Override
    public final void setError(Throwable error) {
        if (error == null) {
            error = new NullPointerException("setError called with null");
        }
        if (begin(error)) {
            Trampoline.run(DisposableReceiver::deliverObserverError, this, error);
        }
    }

    @Override
    public final void setStopped() {
        if (begin(null)) { // not caused by our dispose: the observer must hear about it
            Trampoline.run(DisposableReceiver::deliverObserverError, this,
                    new CancellationException("the sender completed stopped"));
        }
    }

    /** Fails the subscription before the operation started (connect threw). */
    final void deliverObserverError(Throwable error) {
        try {
            deliverError(error);
        } catch (Throwable t) {
            Exceptions.throwIfFatal(t);
            RxJavaPlugins.onError(t);
        }
    }

    @Override
    public final void dispose() {
        int prev = (int) STATE.getAndBitwiseOr(this, DISPOSED);
        if (prev == 0) {
            Trampoline.run(DisposableReceiver::stopNow, this, null); // stack safety, as the signals above
        }
    }

    @Override
    public final boolean isDisposed() {
        return state != 0;
    }

    /**
     * Sets COMPLETED; true if the completion goes to the observer. A dropped error goes to
     * RxJavaPlugins.onError.
     */
    private boolean begin(Throwable errorOrNull) {
        int prev = (int) STATE.getAndBitwiseOr(this, COMPLETED);
        if ((prev & COMPLETED) != 0) {
            ProtocolViolationException pve = new ProtocolViolationException(
                    "a sender completed twice (P2300: exactly one completion per start)");
            if (errorOrNull != null) {
                pve.addSuppressed(errorOrNull);
            }
            RxJavaPlugins.onError(pve);
            return false;
        }
        if (prev == DISPOSED) {
            if (errorOrNull != null && !(errorOrNull instanceof CancellationException)) {
                RxJavaPlugins.onError(errorOrNull);
            }
            return false;
        }
        return true;
    }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(DisposableReceiver.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
