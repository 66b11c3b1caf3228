package dev.senders.internal.rs;

import dev.senders.internal.Trampoline;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.Signals;
import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * One subscription to a publisher made from a sender: the one sender-to-publisher state machine of
 * the library (not public API). It is at once the {@code Subscription} (or {@code Disposable})
 * handed to the subscriber, the {@link Receiver} the sender completes, that receiver's {@link Env},
 * and its stop token (a {@link SubscriptionStop}). The Flow, Reactor and RxJava {@code to*}
 * publishers are thin shells: a shell adds its library's subscription interface (whose
 * {@code request}/{@code cancel} are inherited from here) and says how to signal its subscriber
 * ({@link #signal}),
 * where undeliverable things go ({@link #dropError}, {@link #discard}) and what the env answers
 * besides the stop token ({@link #lookup}: a Reactor context, say).
 *
 * <p><b>Contract.</b> {@link #connectAndStart} connects the sender (cold: once per subscription),
 * calls {@code onSubscribe}, and starts the operation once {@code onSubscribe} has returned
 * without a cancel (a cancel inside it drops the operation unstarted: the sender never runs). Then:
 * <ul>
 * <li>{@code setValue(v)}: {@code onNext(v)} then {@code onComplete()}, the {@code onNext} only
 *     after {@code request(n > 0)} (§1.1); with {@code valueEndsStream} (RxJava's
 *     {@code Single}/{@code Maybe}/{@code Completable}) the shell's value signal alone;
 *     {@code setValue(null)}: the shell's empty completion, which needs no demand;</li>
 * <li>{@code setError(e)}: {@code onError(e)}; {@code setStopped()}:
 *     {@code onError(CancellationException)} (the subscriber did not cancel, or nothing would be
 *     signalled);</li>
 * <li>{@code cancel()}: stop is requested on this subscription's own stop token (unless the sender
 *     completed); what the sender then delivers is not signalled (§3.7): a value goes to
 *     {@link #discard}, an error to {@link #dropError} (a {@code CancellationException} nowhere: it
 *     is the expected answer); once the value has won, a cancel no longer separates it from its
 *     {@code onComplete} (as Reactor's own {@code Mono}s do; §3.12 asks only that a cancel be
 *     honoured eventually);</li>
 * <li>{@code request(n <= 0)}: {@code onError(IllegalArgumentException)} and a stop request (§3.9);
 *     more demand after the first changes nothing (§3.6, one element at most);</li>
 * <li>a sender that completes twice (P2300: exactly once per start): {@link ProtocolViolationException}
 *     to {@link #dropError}; a subscriber that throws from a signal (§2.13): its exception goes to
 *     {@link #dropError}, the subscription is considered cancelled, nothing is re-signalled.</li>
 * </ul>
 * Signals reach the subscriber on the thread that completes the sender, or on the thread that
 * calls {@code request} when the value waited for demand; they are serial (§1.3) because exactly
 * one path wins TERMINAL and only that path signals a terminal signal.
 */
public abstract class SenderSubscription<T> extends SubscriptionStop implements Receiver<T>, Env {
    /*
     * One word, state, races the sender's completion against request against
     * cancel:
     *   REQUESTED   1   request(n > 0) was seen (set from the start when the subscriber takes no demand)
     *   HAS_VALUE   2   the sender's non-null value waits in value (written before this bit's CAS)
     *   COMPLETED   4   the sender completed (any channel); a second completion is a violation
     *   TERMINAL    8   the subscriber's fate is decided: a terminal signal is claimed, or it cancelled
     *   CANCELLED  16   the subscriber cancelled (with TERMINAL, or after an emission had claimed it)
     *   ONE_SIGNAL 32   constant: the value signal is terminal by itself (no onComplete after it)
     *   bits 8..31      constant: the shell's own bits (shellBits()), e.g. which observer type
     * The path whose atomic operation first sets TERMINAL owns the subscriber from then on and takes
     * (reads and clears) actual, so a cancelled or terminated subscriber is no longer
     * referenced (§3.13) even while the sender still holds this receiver. The value is emitted by
     * whichever of request and setValue completes REQUESTED with HAS_VALUE, in the CAS
     * that sets TERMINAL. setValue before demand first claims COMPLETED alone (so that only
     * the first completion ever writes value), then publishes HAS_VALUE with a second CAS; with
     * demand already there it is one CAS (COMPLETED, TERMINAL). cancel is one
     * getAndBitwiseOr; a cancel that finds HAS_VALUE discards the value, and a value published
     * after the cancel is discarded by its own publisher when its CAS finds TERMINAL.
     *
     * @param <T> the value type
     */

    static final int REQUESTED = 1, HAS_VALUE = 2, COMPLETED = 4, TERMINAL = 8, CANCELLED = 16, ONE_SIGNAL = 32;

    /** Flag: the subscriber takes no demand (RxJava observers): the value is signalled as soon as it arrives. */
    public static final int NO_DEMAND = REQUESTED;
    /** Flag: the value signal is terminal by itself ({@code onSuccess}): no {@code onComplete} after it. */
    public static final int VALUE_ENDS_STREAM = ONE_SIGNAL;
    /** Where a shell's own constant bits start in the flags (and the word): see {@link #shellBits()}. */
    public static final int SHELL_SHIFT = 8;

    private @Nullable Object actual;   // the subscriber; taken by the TERMINAL owner, dropped by a winning cancel
    private @Nullable T value;         // published by the CAS that sets HAS_VALUE
    private volatile int state;

    /**
     * @param actual the subscriber or observer
     * @param flags {@link #NO_DEMAND}, {@link #VALUE_ENDS_STREAM}, and the shell's own constant bits
     *              shifted by {@link #SHELL_SHIFT} (kept in the word's high bits, which nothing changes)
     */
    protected SenderSubscription(Object actual, int flags) {
        this.actual = actual;
        STATE.set(this, flags & (NO_DEMAND | VALUE_ENDS_STREAM | (-1 << SHELL_SHIFT)));
    }

    // ------------------------------------------------------------------ what a shell provides

    /** {@link #signal}: {@code onSubscribe(this)}; the payload is {@code null}. */
    public static final int ON_SUBSCRIBE = 0;
    /** {@link #signal}: the value signal ({@code onNext(v)}, or an observer's {@code onSuccess(v)}); the payload is the value. */
    public static final int ON_NEXT = 1;
    /** {@link #signal}: the completion after a value, or the empty completion ({@code setValue(null)}); no payload. */
    public static final int ON_COMPLETE = 2;
    /** {@link #signal}: {@code onError}; the payload is the error. */
    public static final int ON_ERROR = 3;

    /**
     * Signals the subscriber: {@code what} is {@link #ON_SUBSCRIBE}, {@link #ON_NEXT},
     * {@link #ON_COMPLETE} or {@link #ON_ERROR}. The one place where a shell speaks its library's
     * subscriber interface.
     */
    protected abstract void signal(Object actual, int what, @Nullable Object payload);

    /** An error no subscriber can take. */
    protected void dropError(Throwable error) {
        Hooks.onErrorDropped(error);
    }

    /** A value the subscriber cancelled before taking it. */
    protected void discard(@Nullable Object value) {}

    /** What the receiver's env answers for every query but the stop token. */
    protected <V> @Nullable V lookup(Query<V> query) {
        return query.defaultValue();
    }

    // ------------------------------------------------------------------ subscribe

    /** Connects {@code sender} to this receiver, calls {@code onSubscribe}, then starts the operation. */
    public final void connectAndStart(Sender<? extends T> sender) {
        OperationState op;
        try {
            op = Connect.checked(sender, this);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            int prev = (int) STATE.getAndBitwiseOr(this, COMPLETED | TERMINAL);
            if (subscribed() && (prev & TERMINAL) == 0) {
                emitError(takeActual(), t); // §1.9: onSubscribe first, then the failure
            } else {
                dropError(t);
            }
            return;
        }
        if (!subscribed()) {
            cancel(); // §2.13: a subscriber that throws is considered cancelled; the operation never starts
            return;
        }
        if ((state & TERMINAL) != 0) {
            return; // cancelled (or failed, §3.9) inside onSubscribe: an unstarted operation sends nothing
        }
        Trampoline.run(Signals::start, op, this); // stack safety: see emitValueDeep
    }

    private boolean subscribed() {
        try {
            signal(Nulls.nonNull(actual), ON_SUBSCRIBE, null); // not taken before onSubscribe
            return true;
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            dropError(t);
            return false;
        }
    }

    // ------------------------------------------------------------------ Subscription

    /** {@code Subscription.request}: called by the subscriber, possibly concurrently with the sender. */
    public final void request(long n) {
        if (n <= 0) {
            int prev = (int) STATE.getAndBitwiseOr(this, TERMINAL);
            if ((prev & TERMINAL) == 0) {
                if ((prev & COMPLETED) == 0) {
                    requestStop(); // the subscription is over: stop the work
                }
                discardValue(prev);
                emitError(takeActual(), new IllegalArgumentException("request(" + n
                        + "): the requested amount must be positive (Reactive Streams §3.9)"));
            }
            return;
        }
        for (;;) {
            int s = state;
            if ((s & (REQUESTED | TERMINAL)) != 0) {
                return; // §3.6: one element at most, more demand changes nothing
            }
            if ((s & HAS_VALUE) != 0) {
                if (STATE.compareAndSet(this, s, s | REQUESTED | TERMINAL)) {
                    T v = value;
                    value = null;
                    emitValueDeep(v); // the value waited for this demand
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s | REQUESTED)) {
                return;
            }
        }
    }

    /** {@code Subscription.cancel} / {@code Disposable.dispose}: idempotent (§3.5, §3.7). */
    public final void cancel() {
        int prev = (int) STATE.getAndBitwiseOr(this, TERMINAL | CANCELLED);
        if ((prev & TERMINAL) == 0) {
            actual = null; // §3.13
            if ((prev & COMPLETED) == 0) {
                // cancel = stop request on the operation's token; through the trampoline (a cancel
                // of nested Mono -> sender -> Mono levels reaches each level's stop in turn)
                Trampoline.run(SenderSubscription::stopStep, this, null);
            }
            discardValue(prev);
        }
    }

    private void discardValue(int prev) {
        if ((prev & HAS_VALUE) != 0) {
            T v = value;
            value = null;
            discard(v);
        }
    }

    // ------------------------------------------------------------------ Receiver

    @Override
    public final void setValue(@Nullable T v) {
        if (v == null) {
            complete(null, false); // an empty completion needs no demand (§1.2 is about onNext)
            return;
        }
        for (;;) {
            int s = state;
            if ((s & COMPLETED) != 0) {
                secondCompletion(null);
                return;
            }
            if ((s & TERMINAL) != 0) {
                if (STATE.compareAndSet(this, s, s | COMPLETED)) {
                    discard(v); // the subscriber cancelled (or failed by §3.9)
                    return;
                }
            } else if ((s & REQUESTED) != 0) {
                if (STATE.compareAndSet(this, s, s | COMPLETED | TERMINAL)) {
                    emitValueDeep(v);
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s | COMPLETED)) {
                break; // no demand yet: store the value, then publish it
            }
        }
        value = v;
        for (;;) {
            int s = state;
            if ((s & TERMINAL) != 0) {
                value = null;
                discard(v); // cancelled meanwhile
                return;
            }
            if ((s & REQUESTED) != 0) {
                if (STATE.compareAndSet(this, s, s | HAS_VALUE | TERMINAL)) {
                    value = null;
                    emitValueDeep(v);
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s | HAS_VALUE)) {
                return; // request(n) emits it (§1.1: never more than requested)
            }
        }
    }

    @Override
    public final void setError(Throwable error) {
        complete(error == null ? new NullPointerException("the sender called setError(null)") : error, false);
    }

    @Override
    public final void setStopped() {
        complete(null, true);
    }

    /** A completion with nothing to hold back: error, stopped, or an empty value. */
    private void complete(@Nullable Throwable error, boolean stopped) {
        for (;;) {
            int s = state;
            if ((s & COMPLETED) != 0) {
                secondCompletion(error);
                return;
            }
            if (STATE.compareAndSet(this, s, s | COMPLETED | TERMINAL)) {
                if ((s & TERMINAL) != 0) {
                    if (error != null && !(error instanceof CancellationException)) {
                        dropError(error); // undeliverable after cancel (§3.7) or §3.9; never lost
                    }
                } else if (error != null) {
                    Object a = takeActual();
                    Trampoline.run(() -> emitError(a, error)); // stack safety: see emitValueDeep
                } else if (stopped) {
                    Object a = takeActual();
                    Trampoline.run(() -> emitError(a, new CancellationException("the sender completed stopped")));
                } else {
                    Object a = takeActual();
                    Trampoline.run(SenderSubscription::emitCompleteStep, this, a);
                }
                return;
            }
        }
    }

    private void secondCompletion(@Nullable Throwable error) {
        dropError(Signals.extraCompletion("the sender completed twice while "
                + "adapted to a publisher; a sender completes exactly once per start", error));
    }

    // ------------------------------------------------------------------ emission (TERMINAL owned)

    private Object takeActual() {
        Object a = Nulls.nonNull(actual); // the TERMINAL owner takes it, once
        actual = null;
        return a;
    }

    /**
     * Stack safety: the start of the operation and the signals its completion sends go through the
     * per-thread {@link Trampoline}: inline while shallow (no allocation for a value), queued on
     * this thread beyond its depth. A {@code Mono} nested in a sender nested in a {@code Mono},
     * thousands of levels deep, then subscribes and completes without one set of frames per level.
     */
    private void emitValueDeep(@Nullable T v) {
        Trampoline.run(SenderSubscription::emitValueStep, this, v);
    }

    private static <T> void emitValueStep(SenderSubscription<T> s, @Nullable T v) {
        s.emitValue(v);
    }

    private static void stopStep(SenderSubscription<?> s, @Nullable Object unused) {
        s.requestStop();
    }

    private static void emitCompleteStep(SenderSubscription<?> s, Object a) {
        s.emitComplete(a);
    }

    private void emitValue(@Nullable T v) {
        Object a = takeActual();
        try {
            signal(a, ON_NEXT, v);
        } catch (Throwable t) { // §2.13 broken by the subscriber: report, never re-signal
            Signals.throwIfFatal(t);
            dropError(t);
            return;
        }
        if ((state & ONE_SIGNAL) == 0) {
            emitComplete(a); // even if a cancel came meanwhile: the value and its completion are one unit
        }
    }

    private void emitComplete(Object a) {
        try {
            signal(a, ON_COMPLETE, null);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            dropError(t);
        }
    }

    private void emitError(Object a, Throwable error) {
        try {
            signal(a, ON_ERROR, error);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            if (t != error) {
                t.addSuppressed(error);
            }
            dropError(t);
        }
    }

    // ------------------------------------------------------------------ Env

    @Override
    public final Env env() {
        return this;
    }

    @Override
    @SuppressWarnings("unchecked") // the stop token query's type
    public final <V> @Nullable V get(Query<V> query) {
        return query == Query.STOP_TOKEN ? (V) this : lookup(query);
    }

    @Override
    public final StopToken stopToken() {
        return this;
    }

    // ------------------------------------------------------------------ for the shells' introspection

    /** The subscriber, until a terminal signal or a cancel took it. */
    protected final @Nullable Object downstream() {
        return actual;
    }

    /** Whether the subscriber cancelled (or disposed). */
    protected final boolean isCancelled() {
        return (state & CANCELLED) != 0;
    }

    /** Whether the sender completed. */
    protected final boolean isCompleted() {
        return (state & COMPLETED) != 0;
    }

    /** Whether the subscription is over for the subscriber: it cancelled, or it had (or is having) its terminal signal. */
    protected final boolean isTerminated() {
        return (state & TERMINAL) != 0;
    }

    /** The shell's constant bits given to the constructor (shifted back down). */
    protected final int shellBits() {
        return state >>> SHELL_SHIFT;
    }

    /** Whether a value waits for demand. */
    protected final boolean hasPendingValue() {
        return (state & (HAS_VALUE | TERMINAL)) == HAS_VALUE;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[state=" + state + "]";
    }

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), SenderSubscription.class, "state", int.class);
}
