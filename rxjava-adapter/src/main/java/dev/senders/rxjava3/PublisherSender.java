package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import io.reactivex.rxjava3.core.FlowableSubscriber;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * {@link RxSenders#fromFlowable}, {@link RxSenders#fromPublisher} and their variants: a
 * multi-shot sender that subscribes a Reactive Streams compliant {@link Subscriber} to the
 * publisher on each start and completes with the value selected by its {@link Take} mode. The
 * receiver is completed on the thread that signals the publisher, or on the thread that requests
 * stop; a stop request cancels the subscription, then completes stopped.
 *
 * <p>Demand: one {@code request} in {@code onSubscribe}: 1 for {@code FIRST} (cancel on the first
 * element), 2 for {@code SINGLE} (cancel and fail on the second), unbounded otherwise.
 *
 * <p>Foreign publishers that break the rules are never silently tolerated: a {@code null}
 * argument throws {@link NullPointerException} (§2.13) after cancelling and failing the receiver;
 * a second {@code onSubscribe} cancels the new subscription (§2.5) and reports a
 * {@link ProtocolViolationException} to {@code RxJavaPlugins.onError}; {@code onNext} before
 * {@code onSubscribe} (§1.9) or beyond demand (§1.1) fails the receiver with a
 * {@code ProtocolViolationException}; any signal after {@code onComplete}/{@code onError} (§1.7)
 * is reported to {@code RxJavaPlugins.onError}. Elements after our own cancel are expected
 * (§2.8, §3.12 cancel is eventually effective) and ignored.
 *
 * <h2>Implementation notes</h2>
 *
 * One state word, {@code state}, with bits:
 * <pre>
 *   DONE_US    1   we claimed the completion (stop request, selected element, violation)
 *   DONE_UP    2   the publisher's onComplete/onError claimed the completion
 *   SUBSCRIBED 4   onSubscribe stored the subscription (published by this CAS)
 *   IN_REQUEST 8   onSubscribe is inside subscription.request(n)
 *   CANCEL    16   cancel wanted
 *   STARTING  32   start() is registering the stop callback / subscribing
 *   STOP_PENDING 64 a stop request came while STARTING: start() completes stopped when subscribe returns
 * </pre>
 * A stop request during STARTING claims (DONE_US | CANCEL) and cancels as usual, but leaves the
 * {@code setStopped()} to {@code start()}, so the operation never completes while its start is
 * still subscribing (the receiver may be a scope's, which dissociates on completion).
 * Exactly one of DONE_US/DONE_UP is ever set, by a CAS from neither: that is the exactly-once
 * completion. §2.7 (calls on the Subscription are serial) is kept by the IN_REQUEST bit: a thread
 * that sets CANCEL while onSubscribe is inside {@code request} leaves the {@code cancel()} to
 * onSubscribe, which calls it after {@code request} returns; otherwise whoever sets CANCEL after
 * SUBSCRIBED calls it, and onSubscribe cancels at once if it finds CANCEL already set. No
 * {@code cancel} or {@code request} is called from {@code onComplete}/{@code onError} (§2.3).
 * The accumulators are plain fields: the publisher's signals are serialized (§1.3).
 */
final class PublisherSender<T, R> implements Sender<R> {

    private final Publisher<T> source;
    private final Take take;

    PublisherSender(Publisher<T> source, Take take) {
        this.source = source;
        this.take = take;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Operation<>(source, take, Objects.requireNonNull(receiver, "receiver"));
    }

    /**
     * A {@link FlowableSubscriber}: it is already strict (it checks §1.1, §1.9, §2.5, §2.13 itself and
     * never requests {@code n <= 0}), so a {@code Flowable} must not wrap it in RxJava's
     * {@code StrictSubscriber}, which would swallow §2.13's {@code onError(null)}.
     */
    static final class Operation<T, R> implements OperationState, FlowableSubscriber<T>, Runnable {
        static final int DONE_US = 1, DONE_UP = 2, SUBSCRIBED = 4, IN_REQUEST = 8, CANCEL = 16;
        static final int STARTING = 32, STOP_PENDING = 64;
        static final int DONE = DONE_US | DONE_UP;

        private final Publisher<T> source;
        private final Take take;
        private final Receiver<? super R> receiver;
        private volatile int state;
        private Subscription subscription; // published by the CAS that sets SUBSCRIBED
        private StopCallback stopCallback;
        private boolean started;
        private long received;
        private T last;
        private List<T> list;

        Operation(Publisher<T> source, Take take, Receiver<? super R> receiver) {
            this.source = source;
            this.take = take;
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
                Signals.setStopped(receiver);
                return;
            }
            state = STARTING; // nothing else can see this operation yet
            if (token.stopPossible()) {
                stopCallback = token.onStop(this);
            }
            if ((state & DONE) == 0) { // else the stop callback already ran (STOP_PENDING)
                try {
                    source.subscribe(this);
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    if (claimAndCancel()) { // §1.9 says subscribe must not throw; deliver what it threw
                        Signals.setError(receiver, t);
                    } else {
                        RxJavaPlugins.onError(t);
                    }
                }
            }
            for (;;) {
                int st = state;
                if (STATE.compareAndSet(this, st, st & ~STARTING)) {
                    if ((st & STOP_PENDING) != 0) {
                        closeStopCallback(); // waits for the callback's cancel if it still runs
                        Signals.setStopped(receiver);
                    }
                    return;
                }
            }
        }

        /** The stop callback: cancel, then complete stopped. */
        @Override
        public void run() {
            for (;;) {
                int st = state;
                if ((st & DONE) != 0) {
                    return;
                }
                if ((st & STARTING) == 0) {
                    if (claimAndCancel()) {
                        Signals.setStopped(receiver);
                    }
                    return;
                }
                if (STATE.compareAndSet(this, st, st | DONE_US | CANCEL | STOP_PENDING)) {
                    if ((st & (SUBSCRIBED | IN_REQUEST)) == SUBSCRIBED) {
                        subscription.cancel();
                    }
                    return; // start() completes stopped once subscribe returns
                }
            }
        }

        @Override
        public void onSubscribe(Subscription s) {
            if (s == null) {
                throw new NullPointerException("onSubscribe called with null (§2.13)");
            }
            if (subscription != null) {
                s.cancel();
                RxJavaPlugins.onError(new ProtocolViolationException(
                        "onSubscribe called twice (§2.5): the second Subscription was cancelled"));
                return;
            }
            subscription = s;
            for (;;) {
                int st = state;
                if ((st & (CANCEL | DONE)) != 0) { // stopped, failed, or terminated before onSubscribe
                    s.cancel();
                    return;
                }
                if (STATE.compareAndSet(this, st, st | SUBSCRIBED | IN_REQUEST)) {
                    break;
                }
            }
            s.request(take.demand);
            for (;;) {
                int st = state;
                if (STATE.compareAndSet(this, st, st & ~IN_REQUEST)) {
                    if ((st & CANCEL) != 0) {
                        s.cancel();
                    }
                    return;
                }
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onNext(T t) {
            int st = state;
            if ((st & DONE) != 0) {
                if ((st & DONE_UP) != 0) {
                    RxJavaPlugins.onError(new ProtocolViolationException(
                            "onNext after onComplete/onError (§1.7): " + t));
                }
                if (t == null) {
                    throw new NullPointerException("onNext called with null (§2.13)");
                }
                return; // after our own cancel (§2.8): expected
            }
            if (t == null) {
                fail(new NullPointerException("onNext called with null (§2.13)"));
                throw new NullPointerException("onNext called with null (§2.13)");
            }
            if ((st & SUBSCRIBED) == 0) {
                fail(new ProtocolViolationException("onNext before onSubscribe (§1.9)"));
                return;
            }
            if (++received > take.demand) {
                fail(new ProtocolViolationException(
                        "onNext without demand (§1.1): requested " + take.demand + ", received " + received));
                return;
            }
            switch (take) {
                case FIRST:
                    if (claimAndCancel()) {
                        Signals.setValue(receiver, (R) t);
                    }
                    break;
                case SINGLE:
                    if (received > 1) {
                        last = null;
                        fail(new IllegalArgumentException(Take.MORE_THAN_ONE));
                    } else {
                        last = t;
                    }
                    break;
                case LAST:
                    last = t;
                    break;
                case LIST:
                    if (list == null) {
                        list = new ArrayList<>();
                    }
                    list.add(t);
                    break;
                default:
                    break;
            }
        }

        @Override
        public void onError(Throwable e) {
            if (e == null) {
                throw new NullPointerException("onError called with null (§2.13)");
            }
            last = null;
            list = null;
            if (claim(DONE_UP)) {
                if (e instanceof CancellationException) {
                    Signals.setStopped(receiver);
                } else {
                    Signals.setError(receiver, e);
                }
            } else {
                RxJavaPlugins.onError(e); // after our cancel, or a second terminal signal: undeliverable
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void onComplete() {
            int st = state;
            if ((st & DONE_UP) != 0) {
                RxJavaPlugins.onError(new ProtocolViolationException("onComplete after onComplete/onError (§1.7)"));
                return;
            }
            R result;
            switch (take) {
                case LIST:
                    result = (R) (list == null ? List.of() : Collections.unmodifiableList(list));
                    list = null;
                    break;
                case IGNORE:
                    result = null;
                    break;
                default:
                    result = (R) last;
                    last = null;
            }
            if (claim(DONE_UP)) {
                Signals.setValue(receiver, result);
            }
        }

        private void fail(Throwable error) {
            if (claimAndCancel()) {
                Signals.setError(receiver, error);
            } else {
                RxJavaPlugins.onError(error);
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
