package dev.senders.reactor;

import dev.senders.internal.SubscriptionStop;
import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import dev.senders.internal.Trampoline;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One subscription to a sender seen as a {@code Mono} or a {@code Flux} of at most one element:
 * the {@link Subscription} given to the subscriber and the {@link Receiver} the sender completes.
 * Shared by {@link SenderMono} and {@link SenderFlux}.
 *
 * <p>Contract (DESIGN.md, "Reactive Streams boundary"):
 * <ul>
 * <li>subscribe connects the sender and, once {@code onSubscribe} has returned without a cancel,
 *     starts it (so the work runs at once, like {@code Mono.fromFuture}; only the delivery waits);
 * <li>{@code setValue(v)}: {@code onNext(v)} then {@code onComplete()}, the {@code onNext} only
 *     after {@code request(n > 0)} (RS §1.1); a {@code null} value is {@code onComplete()} alone;
 * <li>{@code setError(e)}: {@code onError(e)}; {@code setStopped()}: {@code onError(CancellationException)};
 * <li>{@code cancel()}: stop is requested on this subscription's own stop token (the
 *     {@link SubscriptionStop} this object is), the token of the receiver's env; whatever the sender then delivers is not signalled (RS §3.5,
 *     §3.7: cancel is idempotent): a value goes to {@link Operators#onDiscard}, an error to
 *     {@link Operators#onErrorDropped}, stopped (the expected answer) goes nowhere;
 * <li>{@code request(n <= 0)}: stop is requested and {@code onError(IllegalArgumentException)} is
 *     signalled (RS §3.9).
 * </ul>
 * Signals reach the subscriber on the thread that completes the sender, or on the thread that
 * calls {@code request} when the value was waiting for demand. They are serial (RS §1.3): exactly
 * one path wins the {@code TERMINAL} bit below and only that path signals.
 *
 * <h2>Implementation notes</h2>
 *
 * One atomic word, {@code state}, races value arrival against request against cancel:
 * <pre>
 *   bit 0 REQUESTED  request(n > 0) was seen
 *   bit 1 HAS_VALUE  the sender delivered a non-null value, stored in {@code value} before the bit is set
 *   bit 2 COMPLETED  the sender completed (any channel): a second completion is a protocol violation
 *   bit 3 TERMINAL   the subscriber's fate is decided: a terminal signal is being/was sent, or it cancelled
 * </pre>
 * The path whose compare-and-set first makes {@code TERMINAL} true owns the subscriber from then on;
 * {@code REQUESTED | HAS_VALUE} is emitted by whichever of {@code request} and {@code setValue} makes
 * the pair complete, in the same CAS that sets {@code TERMINAL}. {@code value} is a plain field:
 * written before the CAS that publishes {@code HAS_VALUE}, read after a CAS or a volatile read that
 * observed it. {@code actual} is taken (read and cleared) by the path that won {@code TERMINAL},
 * so a cancelled or terminated subscriber is no longer referenced (RS §3.13) even while the sender
 * still holds this receiver.
 *
 * <p>One object per subscription: it is also the receiver's {@link Env} (the stop token is
 * {@code this}, {@link ReactorSenders#CONTEXT} is the subscriber's context, every other query goes
 * to the env that rode in on that context, see {@link ReactorSenders#outerEnv}) and its stop token
 * ({@link SubscriptionStop}: the first stop callback lives in a field). Before issue 8 these were
 * an {@code InplaceStopSource}, its token, a callback node and two env bindings: 136 bytes and four
 * atomics more per subscription.
 */
final class SenderSubscription<T> extends SubscriptionStop implements Subscription, Receiver<T>, Env, Scannable {

    static final int REQUESTED = 1, HAS_VALUE = 2, COMPLETED = 4, TERMINAL = 8;

    private CoreSubscriber<? super T> actual;   // cleared by the TERMINAL owner (§3.13)
    private final Context context;
    private T value;
    private volatile int state;

    private SenderSubscription(CoreSubscriber<? super T> actual) {
        this.actual = actual;
        this.context = actual.currentContext();
    }

    /** subscribe = connect + start (cold: a new operation per subscriber). */
    static <T> void subscribe(Sender<? extends T> sender, CoreSubscriber<? super T> actual) {
        SenderSubscription<T> s = new SenderSubscription<>(actual);
        OperationState op;
        try {
            op = sender.connect(s);
            if (op == null) {
                throw new NullPointerException("the sender's connect returned a null OperationState");
            }
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Operators.error(actual, t); // onSubscribe(empty) then onError (RS §1.9)
            return;
        }
        actual.onSubscribe(s);
        if ((s.state & TERMINAL) != 0) {
            return; // cancelled (or failed) inside onSubscribe: an unstarted operation sends nothing
        }
        try {
            Trampoline.start(op, s); // stack safety: inline unless deep in nested starts (Mono -> sender -> Mono ...)
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            s.setError(t);
        }
    }

    @Override
    public Env env() {
        return this;
    }

    // ---- Env: the stop token is this subscription, the context the subscriber's ----

    @Override
    @SuppressWarnings("unchecked") // each query's value has the query's type
    public <V> V get(Query<V> query) {
        if (query == Query.STOP_TOKEN) {
            return (V) this;
        }
        if (query == ReactorSenders.CONTEXT) {
            return (V) context;
        }
        Env outer = ReactorSenders.outerEnv(context);
        return outer == null ? query.defaultValue() : outer.get(query);
    }

    @Override
    public StopToken stopToken() {
        return this;
    }

    /** The context the subscriber gave (what {@link ReactorSenders#contextOf} hands to an inner publisher). */
    Context context() {
        return context;
    }

    // ---- Subscription: called by the subscriber, possibly concurrently with the sender ----

    @Override
    public void request(long n) {
        if (n <= 0) {
            // RS §3.9: a non-positive request is signalled as onError(IllegalArgumentException).
            int prev = (int) STATE.getAndBitwiseOr(this, TERMINAL);
            if ((prev & TERMINAL) == 0) {
                requestStop();
                discardValue(prev);
                takeActual().onError(new IllegalArgumentException(
                        "§3.9 violated: positive request amount required but it was " + n));
            }
            return;
        }
        for (;;) {
            int s = state;
            if ((s & (REQUESTED | TERMINAL)) != 0) {
                return; // §3.6/§3.8: more demand changes nothing, one element is the most we emit
            }
            if ((s & HAS_VALUE) != 0) {
                if (STATE.compareAndSet(this, s, s | REQUESTED | TERMINAL)) {
                    T v = value;
                    value = null;
                    emit(v);
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s | REQUESTED)) {
                return;
            }
        }
    }

    @Override
    public void cancel() {
        int prev = (int) STATE.getAndBitwiseOr(this, TERMINAL);
        if ((prev & TERMINAL) == 0) {
            // §3.5/§3.7: idempotent; stop request = the sender's cancellation.
            actual = null;   // §3.13: drop the subscriber
            Trampoline.run(SenderSubscription::stopNow, this, null); // stack safety: see signalError
            discardValue(prev);
        }
    }

    private void discardValue(int prev) {
        if ((prev & HAS_VALUE) != 0) {
            T v = value;
            value = null;
            Dropped.discard(v, context);
        }
    }

    /**
     * Emits the value and completes. A subscriber that throws from {@code onNext} or
     * {@code onComplete} breaks RS §2.13: its exception goes to {@code Operators.onErrorDropped}
     * and the operation is stopped; it is not thrown back into the sender (which would take it for
     * a refused value, rule C1, and complete a second time).
     */
    private void emit(T v) {
        Trampoline.run(SenderSubscription::emitNow, this, v); // stack safety: see signalError
    }

    private void emitNow(T v) {
        CoreSubscriber<? super T> a = takeActual();
        try {
            a.onNext(v);
            a.onComplete();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            requestStop();
            Dropped.error(t, context);
        }
    }

    /** Called only by the path that won {@code TERMINAL}: it owns the subscriber from then on. */
    private CoreSubscriber<? super T> takeActual() {
        CoreSubscriber<? super T> a = actual;
        actual = null;
        return a;
    }

    // ---- Receiver: called by the sender, once ----

    /** Reports a second completion of the sender (P2300: exactly one per start). */
    private void violation(String signal) {
        Dropped.error(new ProtocolViolationException(
                "a sender completed twice (second completion: " + signal + ") while adapted to a Publisher"),
                context);
    }

    /**
     * Sets COMPLETED and TERMINAL in one CAS. Returns 1 if this call owns the subscriber (send the
     * terminal signal), 0 if the subscriber had cancelled, -1 (reported) if the sender had
     * completed already.
     */
    private int completeAndClaim(String signal) {
        for (;;) {
            int s = state;
            if ((s & COMPLETED) != 0) {
                violation(signal);
                return -1;
            }
            if (STATE.compareAndSet(this, s, s | COMPLETED | TERMINAL)) {
                return (s & TERMINAL) == 0 ? 1 : 0;
            }
        }
    }

    /**
     * One CAS in the common case (demand already given): COMPLETED, HAS_VALUE and TERMINAL at once,
     * then emit. A value that comes before demand first claims COMPLETED alone (so that only this
     * completion ever writes {@code value}), then publishes HAS_VALUE with a second CAS, racing
     * {@code request} and {@code cancel} as before.
     */
    @Override
    public void setValue(T v) {
        if (v == null) {
            // A null value is an empty completion; onComplete needs no demand (§1.2 is about onNext).
            if (completeAndClaim("setValue") > 0) {
                Trampoline.run(SenderSubscription::completeNow, this, null); // stack safety: see signalError
            }
            return;
        }
        for (;;) {
            int s = state;
            if ((s & COMPLETED) != 0) {
                violation("setValue");
                return;
            }
            if ((s & TERMINAL) != 0) {
                if (STATE.compareAndSet(this, s, s | COMPLETED)) {
                    Dropped.discard(v, context); // the subscriber cancelled: Reactor discards it
                    return;
                }
            } else if ((s & REQUESTED) != 0) {
                if (STATE.compareAndSet(this, s, s | COMPLETED | HAS_VALUE | TERMINAL)) {
                    emit(v);
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
                Dropped.discard(v, context); // the subscriber cancelled meanwhile
                return;
            }
            if ((s & REQUESTED) != 0) {
                if (STATE.compareAndSet(this, s, s | HAS_VALUE | TERMINAL)) {
                    value = null;
                    emit(v);
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s | HAS_VALUE)) {
                return; // request(n) will emit it (§1.1: never more than requested)
            }
        }
    }

    @Override
    public void setError(Throwable e) {
        if (e == null) {
            e = new NullPointerException("setError(null) by the adapted sender"); // §2.13: no null signals
        }
        int claimed = completeAndClaim("setError");
        if (claimed > 0) {
            signalError(e);
        } else {
            Dropped.error(e, context); // cancelled, or a second completion: never lost, never thrown into the sender's thread
        }
    }

    @Override
    public void setStopped() {
        if (completeAndClaim("setStopped") > 0) {
            // Not caused by this subscriber's cancel (that would have set TERMINAL first).
            signalError(new CancellationException("the sender completed with setStopped"));
        }
    }

    /**
     * The terminal signals the sender's completion sends, and the stop request of a cancel, go
     * through the per-thread {@link Trampoline}: inline while shallow, queued on this thread
     * beyond its depth. A Mono nested in a sender nested in a Mono, thousands of levels deep,
     * then completes (or is cancelled) without growing the stack by one set of frames per level.
     */
    private void signalError(Throwable e) {
        Trampoline.run(SenderSubscription::errorNow, this, e);
    }

    private void errorNow(Throwable e) {
        takeActual().onError(e);
    }

    private void stopNow(Object unused) {
        requestStop();
    }

    private void completeNow(Object unused) {
        takeActual().onComplete();
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public Object scanUnsafe(Attr key) {
        if (key == Attr.ACTUAL) {
            return actual;
        }
        if (key == Attr.CANCELLED) {
            return stopRequested();
        }
        if (key == Attr.TERMINATED) {
            return (state & COMPLETED) != 0;
        }
        if (key == Attr.BUFFERED) {
            return (state & (HAS_VALUE | TERMINAL)) == HAS_VALUE ? 1 : 0;
        }
        if (key == Attr.RUN_STYLE) {
            return Attr.RunStyle.ASYNC;
        }
        return null;
    }

    @Override
    public String toString() {
        return "SenderSubscription[state=" + state + "]";
    }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SenderSubscription.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
