package dev.senders.rxjava3;

import dev.senders.internal.Connect;
import dev.senders.internal.SubscriptionStop;
import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.exceptions.Exceptions;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * {@link RxSenders#toFlowable}: a cold {@code Flowable} of 0 or 1 element. Each subscription
 * connects and starts the sender anew. {@code setValue(v)} = {@code onNext(v)} then
 * {@code onComplete()}, emitted only once there is demand (§1.1); {@code setValue(null)} =
 * {@code onComplete()}; {@code setError(e)} = {@code onError(e)}; {@code setStopped()} =
 * {@code onError(CancellationException)} unless the subscriber cancelled. {@code cancel()}
 * requests stop on the receiver's token. Signals are delivered on the thread that completes the
 * sender, or, for a value that waited for demand, on the thread that calls {@code request}.
 *
 * <h2>Implementation notes</h2>
 *
 * One state word; the sender's completion, {@code request} and {@code cancel} race on it:
 * <pre>
 *   REQUESTED  1   request(n > 0) arrived
 *   COMPLETED  2   the sender completed (a non-null value waits in {@code value})
 *   TERMINATED 4   a terminal signal to the subscriber is claimed (the claimer emits)
 *   CANCELLED  8   the subscriber cancelled
 * </pre>
 * The value is emitted by whoever makes the word hold both REQUESTED and COMPLETED: the request
 * caller when the value was there first, the completing thread otherwise; it claims TERMINATED in
 * the same CAS, so signals are serial (§1.3) and exactly one terminal signal is sent (§1.7). A
 * terminal signal without a value needs no demand (§1.2 allows fewer elements than requested).
 * {@code request(n <= 0)} fails with {@code IllegalArgumentException} (§3.9) and requests stop.
 * Cancel is idempotent (§3.5, §3.7); when it wins before TERMINATED it drops the references to the
 * subscriber and the value (§3.13). A request from inside {@code onNext} finds TERMINATED and
 * returns: recursion is bounded (§3.3). A second completion of the sender is a P2300 violation,
 * reported to {@code RxJavaPlugins.onError}; an error after cancel is undeliverable and goes
 * there too.
 */
final class SenderFlowable<T> extends Flowable<T> {

    private final Sender<T> sender;

    SenderFlowable(Sender<T> sender) {
        this.sender = sender;
    }

    @Override
    protected void subscribeActual(Subscriber<? super T> subscriber) {
        Op<T> op = new Op<>(subscriber);
        OperationState state;
        try {
            state = Connect.checked(sender, op);
        } catch (Throwable t) {
            Exceptions.throwIfFatal(t);
            subscriber.onSubscribe(NoopSubscription.INSTANCE);
            subscriber.onError(t);
            return;
        }
        subscriber.onSubscribe(op);
        if ((op.state & Op.CANCELLED) == 0) { // cancelled inside onSubscribe: drop, unstarted
            RxStart.start(state, op);
        }
    }

    /** The subscription, the receiver, its env and its stop token, in one object ({@link SubscriptionStop}). */
    static final class Op<T> extends SubscriptionStop implements Receiver<T>, Env, Subscription {
        static final int REQUESTED = 1, COMPLETED = 2, TERMINATED = 4, CANCELLED = 8;

        private Subscriber<? super T> downstream; // cleared by a winning cancel (§3.13)
        private T value;                          // published by the CAS that sets COMPLETED
        volatile int state;

        Op(Subscriber<? super T> downstream) {
            this.downstream = downstream;
        }

        @Override
        public Env env() {
            return this;
        }

        @Override
        @SuppressWarnings("unchecked") // the stop token query's type
        public <V> V get(Query<V> query) {
            return query == Query.STOP_TOKEN ? (V) this : query.defaultValue();
        }

        @Override
        public StopToken stopToken() {
            return this;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                for (;;) {
                    int st = state;
                    if ((st & (TERMINATED | CANCELLED)) != 0) {
                        return;
                    }
                    if (STATE.compareAndSet(this, st, st | TERMINATED)) {
                        if ((st & COMPLETED) == 0) {
                            requestStop();
                        }
                        value = null;
                        emitError(new IllegalArgumentException(
                                "§3.9 violated: positive request amount required but it was " + n));
                        return;
                    }
                }
            }
            for (;;) {
                int st = state;
                if ((st & (REQUESTED | TERMINATED | CANCELLED)) != 0) {
                    return;
                }
                if ((st & COMPLETED) != 0) {
                    if (STATE.compareAndSet(this, st, st | REQUESTED | TERMINATED)) {
                        emitValue(value);
                        return;
                    }
                } else if (STATE.compareAndSet(this, st, st | REQUESTED)) {
                    return;
                }
            }
        }

        @Override
        public void cancel() {
            int prev = (int) STATE.getAndBitwiseOr(this, CANCELLED);
            if ((prev & CANCELLED) != 0) {
                return;
            }
            if ((prev & TERMINATED) == 0) {
                downstream = null;
                value = null;
            }
            if ((prev & COMPLETED) == 0) {
                requestStop();
            }
        }

        @Override
        public void setValue(T v) {
            if (v == null) {
                complete(null, false);
                return;
            }
            for (;;) {
                int st = state;
                if ((st & COMPLETED) != 0) {
                    reportSecondCompletion(null); // leaves a pending first value alone
                    return;
                }
                if ((st & (TERMINATED | CANCELLED)) != 0) {
                    if (STATE.compareAndSet(this, st, st | COMPLETED)) {
                        return; // dropped: cancelled, or failed by request(n <= 0)
                    }
                } else if ((st & REQUESTED) != 0) {
                    if (STATE.compareAndSet(this, st, st | COMPLETED | TERMINATED)) {
                        emitValue(v);
                        return;
                    }
                } else {
                    value = v; // published by the CAS below
                    if (STATE.compareAndSet(this, st, st | COMPLETED)) {
                        return; // the value waits for request(n)
                    }
                }
            }
        }

        @Override
        public void setError(Throwable error) {
            complete(error == null ? new NullPointerException("setError called with null") : error, false);
        }

        @Override
        public void setStopped() {
            complete(null, true);
        }

        /** A completion without a value to hold back: error, stopped, or an empty value. */
        private void complete(Throwable error, boolean stopped) {
            for (;;) {
                int st = state;
                if ((st & COMPLETED) != 0) {
                    reportSecondCompletion(error);
                    return;
                }
                if ((st & (TERMINATED | CANCELLED)) != 0) {
                    if (STATE.compareAndSet(this, st, st | COMPLETED)) {
                        if (error != null && !(error instanceof CancellationException)
                                && (st & CANCELLED) != 0) {
                            RxJavaPlugins.onError(error); // undeliverable after cancel
                        }
                        return;
                    }
                } else if (STATE.compareAndSet(this, st, st | COMPLETED | TERMINATED)) {
                    if (error != null) {
                        emitError(error);
                    } else if (stopped) {
                        emitError(new CancellationException("the sender completed stopped"));
                    } else {
                        emitComplete();
                    }
                    return;
                }
            }
        }

        private void emitValue(T v) {
            value = null;
            Subscriber<? super T> s = downstream;
            downstream = null;
            try {
                s.onNext(v);
            } catch (Throwable t) {
                Exceptions.throwIfFatal(t); // §2.13: onNext must not throw; report, do not re-signal
                RxJavaPlugins.onError(t);
                return;
            }
            if ((state & CANCELLED) == 0) {
                try {
                    s.onComplete();
                } catch (Throwable t) {
                    Exceptions.throwIfFatal(t);
                    RxJavaPlugins.onError(t);
                }
            }
        }

        private void emitComplete() {
            Subscriber<? super T> s = downstream;
            downstream = null;
            try {
                s.onComplete();
            } catch (Throwable t) {
                Exceptions.throwIfFatal(t);
                RxJavaPlugins.onError(t);
            }
        }

        private void emitError(Throwable error) {
            Subscriber<? super T> s = downstream;
            downstream = null;
            try {
                s.onError(error);
            } catch (Throwable t) {
                Exceptions.throwIfFatal(t);
                RxJavaPlugins.onError(t);
            }
        }

        private static void reportSecondCompletion(Throwable error) {
            ProtocolViolationException pve = new ProtocolViolationException(
                    "a sender completed twice (P2300: exactly one completion per start)");
            if (error != null) {
                pve.addSuppressed(error);
            }
            RxJavaPlugins.onError(pve);
        }

        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Op.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** The subscription handed over before an immediate error: requests and cancels do nothing. */
    enum NoopSubscription implements Subscription {
        INSTANCE;

        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    }
}
