package dev.senders.flow;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.Connect;
import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Flow;

/**
 * {@link FlowSenders#toPublisher}: a cold {@link Flow.Publisher} of 0 or 1 element. Each
 * subscription connects and starts the sender anew, with one {@link InplaceStopSource} of its own
 * whose token is the receiver's stop token; {@code cancel()} requests stop on it.
 * {@code setValue(v)} = {@code onNext(v)} then {@code onComplete()}, only once there is demand
 * (§1.1); {@code setValue(null)} = {@code onComplete()}; {@code setError(e)} = {@code onError(e)};
 * {@code setStopped()} = {@code onError(CancellationException)} unless the subscriber cancelled.
 *
 * <h2>Implementation notes</h2>
 *
 * One state word per subscription ({@link Op#state}, a VarHandle-accessed {@code int}); the
 * sender's completion (any thread), {@code request} and {@code cancel} (the subscriber's threads)
 * race on it:
 * <pre>
 *   REQUESTED  1   request(n > 0) arrived
 *   COMPLETED  2   the sender completed (a non-null value waits in {@code value}, published by this CAS)
 *   TERMINATED 4   a terminal signal to the subscriber is claimed (the claimer emits it)
 *   CANCELLED  8   the subscriber cancelled
 * </pre>
 * The value is emitted by whoever makes the word hold both REQUESTED and COMPLETED, in the same
 * CAS that claims TERMINATED: the {@code request} caller when the value was there first, the
 * completing thread otherwise. So signals are serial (§1.3), {@code onNext} never exceeds demand
 * (§1.1), and exactly one terminal signal is sent, after which nothing is (§1.7). A completion
 * without a value needs no demand (§1.2 allows fewer elements than requested, §1.4/§1.5 terminal
 * signals need none). {@code request(n <= 0)} claims TERMINATED and signals
 * {@code onError(IllegalArgumentException)} (§3.9), requesting stop on the sender if it has not
 * completed. {@code request} and {@code cancel} after termination or cancel are no-ops (§3.6,
 * §3.7); cancel is idempotent (§3.5) and, when it wins before TERMINATED, drops the references to
 * the subscriber and the pending value (§3.13). A {@code request} from inside {@code onNext} finds
 * TERMINATED and returns, so recursion is bounded (§3.3). {@code subscribe(null)} throws
 * {@link NullPointerException} (§1.9); {@code onSubscribe} is always called first (§1.9), and the
 * sender is started only after it returned. A subscriber that throws breaks §2.13: its subscription
 * is considered cancelled and the exception goes to {@link Hooks#onErrorDropped}. A second
 * completion of the sender (a P2300 violation) and an error after cancel are undeliverable and go
 * there too; a stopped completion after cancel is the expected answer and is not reported.
 */
final class SenderPublisher<T> implements Flow.Publisher<T> {

    private final Sender<? extends T> sender;

    SenderPublisher(Sender<? extends T> sender) {
        this.sender = sender;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber"); // §1.9
        Op<T> op = new Op<>(subscriber);
        OperationState state;
        try {
            state = Connect.checked(sender, op);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            op.state = Op.COMPLETED | Op.TERMINATED;
            if (signalSubscribe(subscriber, NoopSubscription.INSTANCE)) {
                op.emitError(t); // §1.9: onSubscribe first, then the failure
            }
            return;
        }
        if (!signalSubscribe(subscriber, op)) {
            op.cancel(); // §2.13: a subscriber that throws is considered cancelled
            return;
        }
        if ((op.state & Op.CANCELLED) != 0) {
            return; // cancelled inside onSubscribe: the operation is dropped unstarted (sends nothing)
        }
        try {
            state.start();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            op.setError(t);
        }
    }

    private static boolean signalSubscribe(Flow.Subscriber<?> subscriber, Flow.Subscription s) {
        try {
            subscriber.onSubscribe(s);
            return true;
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Hooks.onErrorDropped(t);
            return false;
        }
    }

    @Override
    public String toString() {
        return "FlowSenders.toPublisher(" + sender + ")";
    }

    /** The receiver connected to the sender and the subscription handed to the subscriber. */
    static final class Op<T> implements Receiver<T>, Flow.Subscription {
        static final int REQUESTED = 1, COMPLETED = 2, TERMINATED = 4, CANCELLED = 8;

        private final InplaceStopSource stopSource = new InplaceStopSource();
        private final Env env = Env.of(Query.STOP_TOKEN, stopSource.token());
        private Flow.Subscriber<? super T> downstream; // cleared by a winning cancel (§3.13) and on emission
        private T value;                               // published by the CAS that sets COMPLETED
        volatile int state;

        Op(Flow.Subscriber<? super T> downstream) {
            this.downstream = downstream;
        }

        @Override
        public Env env() {
            return env;
        }

        // ------------------------------------------------------------ Subscription

        @Override
        public void request(long n) {
            if (n <= 0) {
                for (;;) {
                    int st = state;
                    if ((st & (TERMINATED | CANCELLED)) != 0) {
                        return; // §3.6
                    }
                    if (STATE.compareAndSet(this, st, st | TERMINATED)) {
                        if ((st & COMPLETED) == 0) {
                            stopSource.requestStop(); // the subscription is over: stop the work
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
                    return; // one element at most: more demand changes nothing (§3.6, §3.17)
                }
                if ((st & COMPLETED) != 0) {
                    if (STATE.compareAndSet(this, st, st | REQUESTED | TERMINATED)) {
                        emitValue(value); // the value waited for this demand
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
                return; // §3.5, §3.7
            }
            if ((prev & TERMINATED) == 0) {
                downstream = null; // §3.13
                value = null;
            }
            if ((prev & COMPLETED) == 0) {
                stopSource.requestStop(); // cancel = stop request on the operation's token
            }
        }

        // ------------------------------------------------------------ Receiver

        @Override
        public void setValue(T v) {
            if (v == null) {
                complete(null, false);
                return;
            }
            for (;;) {
                int st = state;
                if ((st & COMPLETED) != 0) {
                    reportSecondCompletion(null);
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
                        return; // waits for request(n) (§1.1)
                    }
                    value = null;
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

        /** A completion that needs no demand: error, stopped, or an empty value. */
        private void complete(Throwable error, boolean stopped) {
            for (;;) {
                int st = state;
                if ((st & COMPLETED) != 0) {
                    reportSecondCompletion(error);
                    return;
                }
                if ((st & (TERMINATED | CANCELLED)) != 0) {
                    if (STATE.compareAndSet(this, st, st | COMPLETED)) {
                        if (error != null && (st & CANCELLED) != 0
                                && !(error instanceof CancellationException)) {
                            Hooks.onErrorDropped(error); // undeliverable after cancel (§3.7)
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

        // ------------------------------------------------------------ emission (TERMINATED claimed)

        private void emitValue(T v) {
            value = null;
            Flow.Subscriber<? super T> s = downstream;
            downstream = null;
            try {
                s.onNext(v);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Hooks.onErrorDropped(t); // §2.13: considered cancelled; no further signal
                return;
            }
            if ((state & CANCELLED) == 0) { // cancelled inside onNext: no onComplete (§3.7)
                try {
                    s.onComplete();
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    Hooks.onErrorDropped(t);
                }
            }
        }

        private void emitComplete() {
            Flow.Subscriber<? super T> s = downstream;
            downstream = null;
            try {
                s.onComplete();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Hooks.onErrorDropped(t);
            }
        }

        void emitError(Throwable error) {
            Flow.Subscriber<? super T> s = downstream;
            downstream = null;
            try {
                s.onError(error);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (t != error) {
                    t.addSuppressed(error);
                }
                Hooks.onErrorDropped(t);
            }
        }

        private static void reportSecondCompletion(Throwable error) {
            ProtocolViolationException pve = new ProtocolViolationException(
                    "a sender completed twice (P2300: exactly one completion per start)");
            if (error != null) {
                pve.addSuppressed(error);
            }
            Hooks.onErrorDropped(pve);
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
    enum NoopSubscription implements Flow.Subscription {
        INSTANCE;

        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    }
}
