package dev.senders.reactor;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * One subscription to {@link ReactorScopes#nest}: the publisher's elements, demand and terminal
 * signal pass straight through, and the subscription is associated with a scope from subscribe
 * until the upstream and the downstream are both finished with.
 *
 * <p>Contract:
 * <ul>
 * <li>subscribe: {@code token.tryAssociate()}; if it fails the subscriber gets {@code onSubscribe}
 *     then {@code onError(CancellationException)} and the publisher is never subscribed. Otherwise the
 *     subscriber gets {@code onSubscribe(this)} and the upstream is subscribed by the operation
 *     below (normally at once, on the subscribing thread);
 * <li>{@code onNext}, {@code onComplete}, {@code onError} and {@code request(n > 0)} pass through;
 *     demand made before the upstream's {@code onSubscribe} is accumulated and forwarded then;
 * <li>{@code cancel()}: cancels the upstream; nothing more is signalled (RS §3.5, §3.7);
 * <li>{@code request(n <= 0)}: cancels the upstream and signals {@code onError(IllegalArgumentException)} (§3.9);
 * <li>the scope's stop (the stop token the scope's {@code wrap} gives): cancels the upstream and
 *     signals {@code onError(CancellationException)}, on the stopping thread or, if an {@code onNext}
 *     is in progress, on the thread of that {@code onNext} when it returns;
 * <li>the association is released (one {@code dissociate()}) after the upstream is settled (it
 *     terminated, or {@code cancel()} on it returned, or it was never subscribed) and the downstream
 *     is (its terminal signal returned, or it cancelled) and no {@code onNext} is in progress.
 * </ul>
 *
 * <h2>How the scope is reached</h2>
 *
 * The subscription runs as a {@code Sender<Void>} (this object: {@code connect} records the
 * receiver, {@code start} subscribes upstream and registers on the receiver's stop token) put through
 * {@code token.wrap(..)}, which for a {@link dev.senders.scope.CountingScope} is stop-when the
 * scope's token: that is how the scope's {@code requestStop()} reaches the subscription, for any
 * token type. This object is also the receiver of the wrapped operation (env: {@link Env#empty()},
 * whose never-stopping token lets the counting scope's wrap pass its own token through unchanged,
 * with no extra stop source); its completion is where {@code dissociate()} happens, after the
 * operation below completed, in P3149 nest's order (child finished, then decrement).
 */
final class NestSubscription<T> implements Subscription, CoreSubscriber<T>, Sender<Void>, OperationState,
        Receiver<Void>, Runnable, Scannable {
    /*
     * One atomic long, state:
     *   bit 0  SUBSCRIBED  the upstream's onSubscribe arrived; upstream (plain) is published by this bit's CAS
     *   bit 1  EMITTING    an upstream onNext is being delivered downstream
     *   bit 2  TERMINATED  the downstream's fate is decided (a terminal signal is claimed, or it cancelled):
     *                      no onNext starts after it; exactly one path sets it
     *   bit 3  PENDING     a terminal signal claimed while EMITTING is stored in pending for the emitter
     *   bit 4  CANCELLED   ended by cancel, stop or §3.9 (the operation completes setStopped, else setValue(null))
     *   bit 5  STARTED     the operation was started (its completion may be sent)
     *   bit 6  UP_DONE     the upstream is settled
     *   bit 7  DOWN_DONE   the downstream is settled
     *   bit 8  DISSOCIATED the association was released (exactly once)
     *   bits 9..63         demand requested before SUBSCRIBED (unsigned, saturating at 2^55 - 1 = unbounded)
     * Serial signals to the downstream (RS §1.3): upstream signals are serial among themselves (§1.3
     * upstream); an out-of-band terminal signal (stop, §3.9, a failing wrap) either finds EMITTING clear
     * in the CAS that sets TERMINATED and signals itself, or hands the signal over: it writes
     * pending, then sets PENDING; the emitter clears EMITTING. Whichever of those two atomic
     * operations comes second sees the other's bit and delivers (so exactly one does).
     * The operation completes (and the association is released) when STARTED, UP_DONE and DOWN_DONE
     * are set and EMITTING is clear; every transition that can make that true checks whether it was the
     * one that did (the condition never becomes false again), so exactly one thread releases.
     *
     * RS rules relied on: §1.3 (upstream signals serial), §1.9 (onSubscribe first; a second one is
     * cancelled, §2.5), §2.7 (the downstream's request/cancel are serial among themselves), §2.8
     * (elements after cancel are dropped to Reactor's discard hook), §2.13 (a null signal fails the
     * downstream with a NullPointerException, cancels the upstream and is thrown), §3.6
     * (request after termination is a no-op), §3.9, §3.13 (the reference to the subscriber is dropped
     * on release). The upstream's own §1.1 (no more than requested) is relied on, not re-checked (a
     * pass-through operator). Like Reactor's own operators (takeUntilOther, timeout), the stop path may
     * call cancel() on the upstream concurrently with a request(n) forwarded from the
     * downstream: Reactor subscriptions are thread-safe; a publisher that relies on §2.7 literally should
     * not be nested.
     */

    static final long SUBSCRIBED = 1, EMITTING = 2, TERMINATED = 4, PENDING = 8, CANCELLED = 16,
            STARTED = 32, UP_DONE = 64, DOWN_DONE = 128, DISSOCIATED = 256;
    static final int DEMAND_SHIFT = 9;
    static final long FLAGS = (1L << DEMAND_SHIFT) - 1;
    static final long DEMAND_CAP = -1L >>> DEMAND_SHIFT; // 2^55 - 1: "unbounded"
    private static final long READY_MASK = STARTED | UP_DONE | DOWN_DONE | EMITTING;
    private static final long READY = STARTED | UP_DONE | DOWN_DONE;

    /** {@code pending}'s value for onComplete. */
    private static final Object COMPLETE = new Object();

    private final Publisher<? extends T> source;
    private final AsyncScopeToken token;
    private final Context context;
    /** Nulled at release (§3.13); read only while the release cannot have happened. */
    private @Nullable CoreSubscriber<? super T> actual;
    private @Nullable Subscription upstream;
    /** The receiver of this object's own operation (the scope's wrap). */
    private @Nullable Receiver<? super Void> inner;
    private @Nullable StopCallback stopCallback;
    private @Nullable Object pending;
    private volatile long state;

    private NestSubscription(Publisher<? extends T> source, AsyncScopeToken token, CoreSubscriber<? super T> actual) {
        this.source = source;
        this.token = token;
        this.actual = actual;
        this.context = actual.currentContext();
    }

    static <T> void subscribe(Publisher<? extends T> source, AsyncScopeToken token, CoreSubscriber<? super T> actual) {
        if (!token.tryAssociate()) {
            // The scope refused (closed, or full): nothing runs, and the subscriber is told so (see ReactorScopes.nest).
            Operators.error(actual, new CancellationException("the scope refused the work (it is closed, or holds its"
                    + " maxOutstanding operations): the nested publisher was not subscribed"));
            return;
        }
        NestSubscription<T> s = new NestSubscription<>(source, token, actual);
        OperationState op;
        try {
            Sender<Void> wrapped = Objects.requireNonNull(token.wrap(s), "token.wrap returned null");
            op = Connect.checked(wrapped, s);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            s.dissociateOnce();
            Operators.error(actual, t);
            return;
        }
        try {
            actual.onSubscribe(s);
        } catch (Throwable t) {
            // §2.13 broken by the subscriber: the operation is dropped unstarted; release and report.
            Signals.throwIfFatal(t);
            STATE.getAndBitwiseOr(s, TERMINATED | CANCELLED);
            s.dissociateOnce();
            Dropped.error(t, s.context);
            return;
        }
        try {
            op.start();
        } catch (Throwable t) {
            // A broken wrap: the association stays until the operation completes (SC9).
            Signals.throwIfFatal(t);
            if (!s.terminate(t, false)) {
                Dropped.error(t, s.context);
            }
        }
    }

    // ---- the Sender<Void> the scope wraps, and its operation ----

    @Override
    public OperationState connect(Receiver<? super Void> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (inner != null) {
            throw new ProtocolViolationException("a nest subscription's sender is single-shot: connected twice");
        }
        inner = receiver;
        return this;
    }

    @Override
    public void start() {
        if ((state & STARTED) != 0) {
            throw ImmediateOperation.startedTwice("ReactorScopes.nest's operation"); // a second start throws, changing nothing (H2)
        }
        StopToken stop = Nulls.nonNull(inner).env().stopToken(); // set by connect
        // May run this.run() inline (stop already requested): the downstream then gets its error now.
        stopCallback = stop.stopPossible() ? stop.onStop(this) : null;
        long s;
        long n;
        boolean skip;
        do {
            s = state;
            skip = (s & TERMINATED) != 0; // cancelled or stopped before start: never subscribe upstream
            n = s | STARTED | (skip ? UP_DONE : 0);
        } while (!STATE.compareAndSet(this, s, n));
        if (!isReady(s) && isReady(n)) {
            release();
        }
        if (skip) {
            return;
        }
        try {
            ReactorSubscribe.subscribe(source, this);
        } catch (Throwable t) {
            Signals.throwIfFatal(t); // a publisher that throws from subscribe broke §1.9
            if (!terminate(t, false)) {
                Dropped.error(t, context);
            }
            markDone(UP_DONE); // it returned (abruptly): settled either way
        }
    }

    /** The stop callback: the scope requested stop. */
    @Override
    public void run() {
        terminate(new CancellationException("the scope requested stop"), false);
    }

    // ---- Subscription (the downstream's; request/cancel serial among themselves, §2.7) ----

    @Override
    public void request(long n) {
        if (n <= 0) {
            terminate(new IllegalArgumentException("request(" + n + "): the amount requested must be positive (Reactive Streams §3.9)"), false);
            return;
        }
        for (;;) {
            long s = state;
            if ((s & TERMINATED) != 0) {
                return; // §3.6
            }
            if ((s & SUBSCRIBED) != 0) {
                Nulls.nonNull(upstream).request(n); // pass-through (SUBSCRIBED: set before the bit)
                return;
            }
            long d = s >>> DEMAND_SHIFT;
            long nd = n >= DEMAND_CAP - d ? DEMAND_CAP : d + n;
            if (STATE.compareAndSet(this, s, (s & FLAGS) | (nd << DEMAND_SHIFT))) {
                return; // onSubscribe forwards it
            }
        }
    }

    @Override
    public void cancel() {
        long s;
        do {
            s = state;
            if ((s & TERMINATED) != 0) {
                return; // §3.5/§3.7
            }
        } while (!STATE.compareAndSet(this, s, s | TERMINATED | CANCELLED));
        long done = DOWN_DONE;
        if ((s & SUBSCRIBED) != 0) {
            cancelUpstream(Nulls.nonNull(upstream)); // SUBSCRIBED: set before the bit
            done |= UP_DONE;
        } // else: start() will not subscribe, or onSubscribe will cancel
        markDone(done);
    }

    // ---- CoreSubscriber (the upstream's signals, serial: §1.3) ----

    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (s == null) {
            throw nullSignal("onSubscribe(null)", true);
        }
        if ((state & SUBSCRIBED) != 0) {
            cancelUpstream(s); // §2.5
            Dropped.error(new ProtocolViolationException(source + " called onSubscribe twice (Reactive Streams §2.5); the second subscription was cancelled, the first is kept"), context);
            return;
        }
        upstream = s;
        long st;
        do {
            st = state;
        } while (!STATE.compareAndSet(this, st, (st & FLAGS) | SUBSCRIBED));
        if ((st & TERMINATED) != 0) {
            cancelUpstream(s); // cancelled or stopped before the upstream arrived
            markDone(UP_DONE);
            return;
        }
        long d = st >>> DEMAND_SHIFT;
        if (d != 0) {
            s.request(d == DEMAND_CAP ? Long.MAX_VALUE : d);
        }
    }

    @Override
    public void onNext(T t) {
        if (t == null) {
            throw nullSignal("onNext(null)", false);
        }
        long s;
        do {
            s = state;
            if ((s & TERMINATED) != 0) {
                Dropped.discard(t, context); // §2.8: after cancel or stop
                return;
            }
        } while (!STATE.compareAndSet(this, s, s | EMITTING));
        try {
            Nulls.nonNull(actual).onNext(t); // EMITTING: the release cannot have happened
        } finally {
            leave();
        }
    }

    private void leave() {
        long prev = (long) STATE.getAndBitwiseAnd(this, ~EMITTING);
        if ((prev & PENDING) != 0) {
            Object p = pending; // written before PENDING was set
            pending = null;
            deliver(Nulls.nonNull(p), 0); // the out-of-band signal claimed while we emitted
        } else if (!isReady(prev) && isReady(prev & ~EMITTING)) {
            release(); // e.g. cancelled from inside onNext: released once it returned
        }
    }

    @Override
    public void onError(Throwable e) {
        if (e == null) {
            throw nullSignal("onError(null)", true);
        }
        if (!terminate(e, true)) {
            if (!(e instanceof CancellationException)) {
                Dropped.error(e, context); // after cancel or stop: never lost
            }
            markDone(UP_DONE);
        }
    }

    @Override
    public void onComplete() {
        if (!terminate(COMPLETE, true)) {
            markDone(UP_DONE);
        }
    }

    /**
     * §2.13, as every subscriber of the library handles it: the downstream gets the
     * {@link NullPointerException}, the upstream counts as settled (cancelled first after a null
     * element; {@code ended}: the null signal was its subscription or its terminal signal), so the
     * association is released, and the caller gets the exception thrown.
     */
    private NullPointerException nullSignal(String signal, boolean ended) {
        NullPointerException npe = new NullPointerException(source + " called " + signal
                + " (Reactive Streams §2.13: signals must not be null)");
        if (!terminate(npe, ended)) {
            markDone(UP_DONE); // already decided: the downstream has its answer
        }
        return npe;
    }

    // ---- the state machine ----

    /**
     * Claims the downstream's terminal signal ({@code signal}: a {@code Throwable}, or
     * {@code COMPLETE}); false if already decided. {@code fromUpstream}: the upstream terminated;
     * otherwise the upstream is cancelled if it is subscribed (else start/onSubscribe settle it).
     */
    private boolean terminate(Object signal, boolean fromUpstream) {
        long s;
        do {
            s = state;
            if ((s & TERMINATED) != 0) {
                return false;
            }
        } while (!STATE.compareAndSet(this, s, s | TERMINATED | (fromUpstream ? 0 : CANCELLED)));
        long done = 0;
        if (fromUpstream) {
            done = UP_DONE;
        } else if ((s & SUBSCRIBED) != 0) {
            cancelUpstream(Nulls.nonNull(upstream)); // SUBSCRIBED: set before the bit
            done = UP_DONE;
        }
        if ((s & EMITTING) == 0) {
            deliver(signal, done); // no onNext can start any more: the downstream is ours
            return true;
        }
        pending = signal;
        long prev = (long) STATE.getAndBitwiseOr(this, PENDING | done);
        if ((prev & EMITTING) == 0) {
            pending = null;
            deliver(signal, 0); // the emitter left before seeing PENDING
        }
        return true;
    }

    private void deliver(Object signal, long done) {
        CoreSubscriber<? super T> a = Nulls.nonNull(actual); // released only after this delivery
        try {
            if (signal == COMPLETE) {
                a.onComplete();
            } else {
                a.onError((Throwable) signal);
            }
        } catch (Throwable t) {
            // §2.13 broken by the subscriber: never thrown into the stopping (or publishing) thread
            Signals.throwIfFatal(t);
            Dropped.error(t, context);
        } finally {
            markDone(DOWN_DONE | done);
        }
    }

    private static boolean isReady(long s) {
        return (s & READY_MASK) == READY;
    }

    private void markDone(long bits) {
        long prev = (long) STATE.getAndBitwiseOr(this, bits);
        if (!isReady(prev) && isReady(prev | bits)) {
            release();
        }
    }

    /** Exactly once: deregister from the stop token, drop the subscriber (§3.13), complete the operation. */
    private void release() {
        StopCallback cb = stopCallback;
        stopCallback = null;
        if (cb != null) {
            cb.close();
        }
        actual = null;
        Receiver<? super Void> r = Nulls.nonNull(inner); // set by connect
        if ((state & CANCELLED) != 0) {
            Signals.setStopped(r);
        } else {
            Signals.setValue(r, null);
        }
    }

    /** §3.15: cancel must return normally; a publisher whose cancel throws is reported. */
    private void cancelUpstream(Subscription s) {
        try {
            s.cancel();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Dropped.error(new ProtocolViolationException("a subscription threw from cancel() (Reactive Streams §3.15): " + t), context);
        }
    }

    // ---- Receiver<Void>: the completion of token.wrap(this); releases the association ----

    @Override
    public void setValue(@Nullable Void value) {
        outerDone(null, false);
    }

    @Override
    public void setError(Throwable error) {
        outerDone(error == null ? new NullPointerException("setError(null)") : error, false);
    }

    @Override
    public void setStopped() {
        outerDone(null, true);
    }

    @Override
    public Env env() {
        return Env.empty();
    }

    private void outerDone(@Nullable Throwable error, boolean stopped) {
        try {
            if ((state & STARTED) == 0) {
                // The wrap completed without running this operation: tell the downstream.
                Object signal = error != null ? error
                        : stopped ? new CancellationException("the scope's wrap completed stopped") : COMPLETE;
                if (!terminate(signal, false) && error != null) {
                    Dropped.error(error, context);
                }
            } else if (error != null) {
                Dropped.error(error, context); // the wrap failed after the downstream had its answer
            }
        } finally {
            dissociateOnce();
        }
    }

    private void dissociateOnce() {
        if (((long) STATE.getAndBitwiseOr(this, DISSOCIATED) & DISSOCIATED) == 0) {
            token.dissociate();
        }
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public @Nullable Object scanUnsafe(Attr key) {
        long s = state;
        if (key == Attr.ACTUAL) {
            return actual;
        }
        if (key == Attr.PARENT) {
            return (s & SUBSCRIBED) != 0 ? upstream : null;
        }
        if (key == Attr.CANCELLED) {
            return (s & CANCELLED) != 0;
        }
        if (key == Attr.TERMINATED) {
            return (s & TERMINATED) != 0 && (s & CANCELLED) == 0;
        }
        if (key == Attr.REQUESTED_FROM_DOWNSTREAM) {
            long d = s >>> DEMAND_SHIFT;
            return d == DEMAND_CAP ? Long.MAX_VALUE : d; // only before the upstream arrived
        }
        if (key == Attr.RUN_STYLE) {
            return Attr.RunStyle.SYNC;
        }
        return null;
    }

    @Override
    public String toString() {
        return "ReactorScopes.nest(" + source + ")[state=" + Long.toHexString(state) + "]";
    }

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), NestSubscription.class, "state", long.class);
}
