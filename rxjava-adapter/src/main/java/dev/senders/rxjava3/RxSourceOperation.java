package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;

/**
 * The operation behind {@link RxSenders#fromSingle}, {@code fromMaybe}, {@code fromCompletable}
 * and {@code fromObservable}: it subscribes an RxJava observer to the source when started and
 * completes its receiver exactly once, from whichever comes first of the source's terminal signal
 * and a stop request on the receiver's token.
 *
 * <h2>Implementation notes</h2>
 *
 * One state word, {@code state}: {@link #NEW} until {@code start()} (a second start finds it
 * changed: the double-start check costs no field), {@link #SUBSCRIBING} while it subscribes, then
 * {@link #ACTIVE}, then either {@link #DONE_BY_US} (a stop request, or an {@code Observable}'s
 * first element, claimed the completion and disposed the upstream) or {@link #DONE_BY_UPSTREAM}
 * (the source's own terminal signal claimed it). A stop request that comes while the state is
 * still {@code SUBSCRIBING} (on another thread) moves it to {@link #STOP_PENDING} and disposes
 * what upstream there is; {@code start()} completes stopped once {@code subscribe} has returned,
 * so the operation is never completed while its {@code start()} is still subscribing (the
 * receiver may be a scope's, which releases its association on completion). The stop callback and
 * the observer race on it with one CAS; the loser does nothing, except that an error arriving
 * after the completion was claimed is undeliverable and goes to {@link RxJavaPlugins#onError}
 * (RxJava's convention), and a signal after the source's own terminal signal is a protocol
 * violation, reported there too.
 *
 * <p>The upstream {@link Disposable} lives in {@code upstream} with the {@code DisposableHelper}
 * protocol: {@code null} until {@code onSubscribe}, then the source's disposable, or
 * {@link #DISPOSED} once we disposed it; an {@code onSubscribe} that finds {@code DISPOSED}
 * disposes its argument at once (the stop came first). RxJava protocol relied on: {@code
 * onSubscribe} is called first and once ({@code Observer} contract; a second call is reported and
 * its disposable disposed, like {@code DisposableHelper.setOnce}); signals of one source are
 * serialized (the Observable contract), so {@code terminated} and the subclass fields need no
 * synchronization; {@code dispose()} may be called from any thread.
 *
 * <p>The stop callback is registered before subscribing, so it is assigned before any terminal
 * signal can close it; the completion path closes it before completing the receiver (P2300:
 * deregister before completion).
 */
abstract class RxSourceOperation<T> implements OperationState, Runnable {

    static final int NEW = 0;
    static final int SUBSCRIBING = 1;
    static final int ACTIVE = 2;
    static final int STOP_PENDING = 3;
    static final int DONE_BY_US = 4;
    static final int DONE_BY_UPSTREAM = 5;

    static final Disposable DISPOSED = Disposable.disposed();

    final Receiver<? super T> receiver;
    private volatile int state;
    private volatile Disposable upstream;
    private StopCallback stopCallback;

    RxSourceOperation(Receiver<? super T> receiver) {
        this.receiver = receiver;
    }

    /** Subscribes the observer ({@code this}) to the source. */
    abstract void subscribeUpstream();

    @Override
    public final void start() {
        if (state != NEW) {
            throw new ProtocolViolationException("OperationState.start() called twice on " + this);
        }
        // Plain write: no other thread reads the word before the stop callback's registration
        // (a CAS) or the source's subscribe publishes this operation.
        STATE.set(this, SUBSCRIBING);
        StopToken token = receiver.env().stopToken();
        if (token.stopRequested()) {
            state = DONE_BY_US;
            Signals.setStopped(receiver);
            return;
        }
        if (token.stopPossible()) {
            stopCallback = token.onStop(this);
        }
        if (state == SUBSCRIBING) { // else the stop callback already ran (STOP_PENDING)
            try {
                subscribeUpstream();
            } catch (Throwable t) { // subscribe must not throw (RxJava contract); deliver what it threw
                Signals.throwIfFatal(t);
                if (claimAndDispose()) {
                    completeClaimedError(t);
                    return;
                }
                RxJavaPlugins.onError(t);
            }
            // Read before CAS: a source that signalled synchronously (the common case) already
            // moved the word to DONE_*, and a CAS that must fail still costs a locked instruction.
            if (state == SUBSCRIBING && STATE.compareAndSet(this, SUBSCRIBING, ACTIVE)) {
                return;
            }
        }
        if (state == STOP_PENDING && STATE.compareAndSet(this, STOP_PENDING, DONE_BY_US)) { // a stop came while subscribing
            closeStopCallback(); // waits for the callback's dispose to return if it is still running
            Signals.setStopped(receiver);
        }
    }

    /** The stop callback: dispose the upstream, then complete stopped. */
    @Override
    public final void run() {
        for (;;) {
            int s = state;
            if (s == ACTIVE) {
                if (STATE.compareAndSet(this, ACTIVE, DONE_BY_US)) {
                    disposeUpstream();
                    Signals.setStopped(receiver);
                    return;
                }
            } else if (s == SUBSCRIBING) {
                if (STATE.compareAndSet(this, SUBSCRIBING, STOP_PENDING)) {
                    disposeUpstream(); // start() completes stopped once subscribe returns
                    return;
                }
            } else {
                return;
            }
        }
    }

    final void upstreamSubscribe(Disposable d) {
        if (d == null) {
            throw new NullPointerException("onSubscribe called with a null Disposable");
        }
        if (!UPSTREAM.compareAndSet(this, null, d)) {
            d.dispose();
            if (upstream != DISPOSED) {
                RxJavaPlugins.onError(new ProtocolViolationException(
                        "onSubscribe called twice (RxJava Observer contract): the second Disposable was disposed"));
            }
        }
    }

    final boolean isTerminatedByUpstream() {
        return state == DONE_BY_UPSTREAM;
    }

    final boolean isDone() {
        return state >= STOP_PENDING;
    }

    /** The source terminated with a value ({@code null} for empty). */
    final void upstreamValue(T value) {
        if (claim(DONE_BY_UPSTREAM)) {
            upstream = DISPOSED; // nothing left to dispose; releases the reference
            Signals.setValue(receiver, value);
        } else if (state == DONE_BY_UPSTREAM) {
            RxJavaPlugins.onError(new ProtocolViolationException(
                    "a terminal signal after the source already terminated (RxJava Observer contract)"));
        }
    }

    /** The source failed; a {@link CancellationException} becomes {@code setStopped}. */
    final void upstreamError(Throwable error) {
        if (error == null) {
            error = new NullPointerException("onError called with a null Throwable");
        }
        if (claim(DONE_BY_UPSTREAM)) {
            upstream = DISPOSED;
            if (error instanceof CancellationException) {
                Signals.setStopped(receiver);
            } else {
                Signals.setError(receiver, error);
            }
        } else {
            RxJavaPlugins.onError(error); // undeliverable: wrapped as UndeliverableException by RxJava
        }
    }

    /**
     * Claims the completion for a value we picked ourselves (an Observable's first element),
     * disposing the upstream first.
     */
    final boolean claimAndDispose() {
        if (claim(DONE_BY_US)) {
            disposeUpstream();
            return true;
        }
        return false;
    }

    /** Completes with a value after {@link #claimAndDispose()} returned true. */
    final void completeClaimedValue(T value) {
        Signals.setValue(receiver, value);
    }

    /** Completes with an error after {@link #claimAndDispose()} returned true. */
    final void completeClaimedError(Throwable error) {
        Signals.setError(receiver, error);
    }

    /** Reports a signal that arrived after the source's own terminal signal. */
    final void reportAfterTerminal(String what) {
        RxJavaPlugins.onError(new ProtocolViolationException(
                what + " after the source already terminated (RxJava Observer contract)"));
    }

    private boolean claim(int how) {
        for (;;) {
            int s = state;
            if (s != SUBSCRIBING && s != ACTIVE) {
                return false;
            }
            if (STATE.compareAndSet(this, s, how)) {
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
        Disposable d = (Disposable) UPSTREAM.getAndSet(this, DISPOSED);
        if (d != null && d != DISPOSED) {
            d.dispose();
        }
    }

    private static final VarHandle STATE;
    private static final VarHandle UPSTREAM;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(RxSourceOperation.class, "state", int.class);
            UPSTREAM = l.findVarHandle(RxSourceOperation.class, "upstream", Disposable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
