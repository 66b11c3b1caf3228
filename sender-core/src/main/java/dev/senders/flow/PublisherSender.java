package dev.senders.flow;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Flow;

/**
 * {@link FlowSenders#fromPublisher} and {@link FlowSenders#fromPublisherList}: a multi-shot sender
 * that subscribes a Reactive Streams compliant {@link Flow.Subscriber} to the publisher on each
 * start. Mode {@link #FIRST} requests 1 and completes with the first element (cancelling the
 * subscription), or {@code null} if the publisher completes empty; mode {@link #LIST} requests
 * unbounded ({@code Long.MAX_VALUE}, §3.17) and completes with all elements. {@code onError(e)} is
 * {@code setError(e)}, a {@link CancellationException} is {@code setStopped()}. A stop request on
 * the receiver's token cancels the subscription, then completes stopped on the stopping thread.
 *
 * <h2>Implementation notes</h2>
 *
 * One state word per operation ({@code state}, a VarHandle-accessed {@code int}), on which the
 * stop callback (any thread) and the publisher's signals (serial among themselves, §1.3) race:
 * <pre>
 *   DONE_US    1   we claimed the completion (stop request, the selected element, a violation)
 *   DONE_UP    2   the publisher's onComplete/onError claimed the completion
 *   SUBSCRIBED 4   onSubscribe stored the subscription (the plain field is published by this CAS)
 *   IN_REQUEST 8   onSubscribe is inside subscription.request(n)
 *   CANCEL    16   cancel wanted
 * </pre>
 * Exactly one of DONE_US/DONE_UP is ever set, by a CAS from neither: that is the receiver's
 * exactly-once completion. Calls on the subscription stay serial (§2.7) through IN_REQUEST: a
 * thread that sets CANCEL while onSubscribe is inside {@code request} leaves the {@code cancel()}
 * to onSubscribe, which calls it once {@code request} returned; otherwise whoever sets CANCEL after
 * SUBSCRIBED calls it, and onSubscribe cancels at once if it finds CANCEL or a completion already
 * there (§2.5 for a second onSubscribe). Demand is signalled once, in onSubscribe (§2.1); no
 * {@code request} or {@code cancel} is called from {@code onComplete}/{@code onError} (§2.3), and
 * the subscriber never calls back into the publisher synchronously otherwise. The element counter
 * and the accumulators are plain fields: the publisher's signals are serial (§1.3).
 *
 * <p>The publisher is held to the rules: {@code null} arguments throw
 * {@link NullPointerException} (§2.13), a {@code null} element or error also fails the receiver;
 * {@code onNext} before {@code onSubscribe} (§1.9) or beyond demand (§1.1) cancels and fails the
 * receiver with {@link ProtocolViolationException}; any signal after {@code onComplete}/
 * {@code onError} (§1.7) is reported to {@link Hooks#onErrorDropped}. Elements and completions
 * after our own cancel are legal (§2.8, §3.12: cancel is eventually effective) and ignored; an
 * error after our cancel is undeliverable and goes to {@code Hooks.onErrorDropped}. A publisher
 * whose {@code subscribe} throws (it must not, §1.9) fails the receiver with what it threw.
 */
final class PublisherSender<T, R> implements Sender<R> {

    /** Request 1, complete with the first element and cancel; empty = null. */
    static final int FIRST = 0;
    /** Request unbounded, complete with every element in an unmodifiable list. */
    static final int LIST = 1;

    private final Flow.Publisher<? extends T> source;
    private final int mode;

    PublisherSender(Flow.Publisher<? extends T> source, int mode) {
        this.source = source;
        this.mode = mode;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Operation<T, R>(source, mode, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public String toString() {
        return (mode == FIRST ? "FlowSenders.fromPublisher(" : "FlowSenders.fromPublisherList(") + source + ")";
    }

    static final class Operation<T, R> implements OperationState, Flow.Subscriber<T>, Runnable {
        static final int DONE_US = 1, DONE_UP = 2, SUBSCRIBED = 4, IN_REQUEST = 8, CANCEL = 16;
        static final int DONE = DONE_US | DONE_UP;

        private final Flow.Publisher<? extends T> source;
        private final int mode;
        private final long demand;
        private final Receiver<? super R> receiver;
        private volatile int state;
        private Flow.Subscription subscription; // published by the CAS that sets SUBSCRIBED
        private StopCallback stopCallback;       // written before subscribe; closed by the claimer
        private boolean started;
        private long received;
        private List<T> list;

        Operation(Flow.Publisher<? extends T> source, int mode, Receiver<? super R> receiver) {
            this.source = source;
            this.mode = mode;
            this.demand = mode == FIRST ? 1L : Long.MAX_VALUE;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            if (started) {
                throw new ProtocolViolationException("OperationState.start() called twice on " + this);
            }
            started = true;
            StopToken token = receiver.env().stopToken();
            if (token.stopRequested()) {
                state = DONE_US | CANCEL;
                Signals.setStopped(receiver); // never subscribed: nothing to cancel
                return;
            }
            if (token.stopPossible()) {
                stopCallback = token.onStop(this);
            }
            if (state != 0) {
                return; // the stop callback ran inline and completed stopped
            }
            try {
                source.subscribe(this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (claimAndCancel()) { // §1.9: subscribe must not throw; deliver what it threw
                    Signals.setError(receiver, t);
                } else {
                    Hooks.onErrorDropped(t);
                }
            }
        }

        /** The stop callback: cancel the subscription, then complete stopped. */
        @Override
        public void run() {
            if (claimAndCancel()) {
                Signals.setStopped(receiver);
            }
        }

        // ------------------------------------------------------------ Subscriber

        @Override
        public void onSubscribe(Flow.Subscription s) {
            if (s == null) {
                throw new NullPointerException("onSubscribe called with null (§2.13)");
            }
            if (subscription != null) {
                s.cancel(); // §2.5
                Hooks.onErrorDropped(new ProtocolViolationException(
                        "onSubscribe called twice (§2.5): the second Subscription was cancelled"));
                return;
            }
            subscription = s;
            for (;;) {
                int st = state;
                if ((st & (CANCEL | DONE)) != 0) { // stopped or failed before onSubscribe
                    s.cancel();
                    return;
                }
                if (STATE.compareAndSet(this, st, st | SUBSCRIBED | IN_REQUEST)) {
                    break;
                }
            }
            try {
                s.request(demand); // §2.1
            } catch (Throwable t) { // §3.16: request must return normally; fail with what it threw
                Signals.throwIfFatal(t);
                clearInRequest();
                fail(t);
                return;
            }
            if ((clearInRequest() & CANCEL) != 0) {
                s.cancel(); // deferred by a cancel that arrived during request (§2.7)
            }
        }

        private int clearInRequest() {
            for (;;) {
                int st = state;
                if (STATE.compareAndSet(this, st, st & ~IN_REQUEST)) {
                    return st;
                }
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onNext(T t) {
            int st = state;
            if ((st & DONE) != 0) {
                if ((st & DONE_UP) != 0) {
                    Hooks.onErrorDropped(new ProtocolViolationException(
                            "onNext after onComplete/onError (§1.7): " + t));
                }
                if (t == null) {
                    throw new NullPointerException("onNext called with null (§2.13)");
                }
                return; // after our own cancel (§2.8): expected, ignored
            }
            if (t == null) {
                NullPointerException npe = new NullPointerException("onNext called with null (§2.13)");
                fail(npe);
                throw npe;
            }
            if ((st & SUBSCRIBED) == 0) {
                fail(new ProtocolViolationException("onNext before onSubscribe (§1.9)"));
                return;
            }
            if (++received > demand) {
                fail(new ProtocolViolationException(
                        "onNext without demand (§1.1): requested " + demand + ", received " + received));
                return;
            }
            if (mode == FIRST) {
                if (claimAndCancel()) {
                    Signals.setValue(receiver, (R) t);
                }
            } else {
                List<T> l = list;
                if (l == null) {
                    l = new ArrayList<>();
                    list = l;
                }
                l.add(t);
            }
        }

        @Override
        public void onError(Throwable e) {
            if (e == null) {
                NullPointerException npe = new NullPointerException("onError called with null (§2.13)");
                list = null;
                fail(npe);
                throw npe;
            }
            list = null;
            if (claim(DONE_UP)) {
                if (e instanceof CancellationException) {
                    Signals.setStopped(receiver); // upstream CancellationException = stopped
                } else {
                    Signals.setError(receiver, e);
                }
            } else {
                Hooks.onErrorDropped(e); // after our cancel, or a second terminal signal (§1.7)
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onComplete() {
            if ((state & DONE_UP) != 0) {
                Hooks.onErrorDropped(new ProtocolViolationException("onComplete after onComplete/onError (§1.7)"));
                return;
            }
            R result;
            if (mode == FIRST) {
                result = null; // completed before any element: empty = null
            } else {
                result = (R) (list == null ? List.of() : Collections.unmodifiableList(list));
                list = null;
            }
            if (claim(DONE_UP)) {
                Signals.setValue(receiver, result);
            } // else: after our own cancel (§2.8), or we failed it: nothing more to say
        }

        // ------------------------------------------------------------ completion claims

        private void fail(Throwable error) {
            if (claimAndCancel()) {
                Signals.setError(receiver, error);
            } else {
                Hooks.onErrorDropped(error);
            }
        }

        private boolean claim(int how) {
            for (;;) {
                int st = state;
                if ((st & DONE) != 0) {
                    return false;
                }
                if (STATE.compareAndSet(this, st, st | how)) {
                    closeStopCallback();
                    return true;
                }
            }
        }

        /** Claims the completion and cancels the subscription, keeping calls on it serial (§2.7). */
        private boolean claimAndCancel() {
            for (;;) {
                int st = state;
                if ((st & DONE) != 0) {
                    return false;
                }
                if (STATE.compareAndSet(this, st, st | DONE_US | CANCEL)) {
                    if ((st & (SUBSCRIBED | IN_REQUEST)) == SUBSCRIBED) {
                        subscription.cancel();
                    }
                    closeStopCallback();
                    return true;
                }
            }
        }

        private void closeStopCallback() {
            StopCallback c = stopCallback;
            if (c != null) {
                stopCallback = null;
                c.close(); // from inside the callback itself this returns at once
            }
        }

        @Override
        public String toString() {
            return "FlowSenders subscriber[state=" + state + "]";
        }

        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Operation.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
