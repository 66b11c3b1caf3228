package dev.senders.stress.lincheck;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A publisher that follows the Reactive Streams rules and sends each signal when the scenario
 * says so, from whichever thread calls: elements {@code 1, 2, 3, ...} within the demand, then one
 * terminal signal. Its signals are serial (§1.3) through a lock, so the scenario may call them
 * from any threads. It keeps sending after a cancel (§2.8, §3.12: a cancel takes effect
 * eventually), which a subscriber must tolerate.
 *
 * <p>Its subscription records what the subscriber does to it, for the scenario's invariants:
 * the amounts requested, the cancels, and whether two calls ever overlapped (§2.7: calls on a
 * subscription must be serial) or a request came after a cancel. It never calls back into the
 * subscriber from {@code request}: demand is only recorded, and the scenario's {@link #onNext}
 * uses it.
 */
final class ScriptedPublisher implements Publisher<Integer> {

    /** The error {@link #onError} sends. */
    static final IllegalStateException ERROR = new IllegalStateException("the publisher failed");

    private boolean onSubscribeInSubscribe;         // guarded by this
    private Subscriber<? super Integer> subscriber; // guarded by this
    private boolean subscribed;                     // guarded by this
    private boolean terminated;                     // guarded by this
    private int emitted;                            // guarded by this

    final AtomicLong requested = new AtomicLong();
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger cancels = new AtomicInteger();
    private final AtomicInteger inCall = new AtomicInteger();
    volatile String violation;
    volatile boolean errorSent;

    /** From now on {@code subscribe} calls {@code onSubscribe} before it returns (as {@code Flux.just} does). */
    synchronized void onSubscribeInSubscribe() {
        onSubscribeInSubscribe = true;
    }

    final Subscription subscription = new Subscription() {
        @Override
        public void request(long n) {
            enter("request");
            if (cancels.get() != 0) {
                violation = "request(" + n + ") after cancel";
            }
            if (n <= 0) {
                violation = "request(" + n + ")";
            }
            requests.incrementAndGet();
            requested.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            inCall.decrementAndGet();
        }

        @Override
        public void cancel() {
            enter("cancel");
            cancels.incrementAndGet();
            inCall.decrementAndGet();
        }

        private void enter(String call) {
            if (inCall.getAndIncrement() != 0) {
                violation = call + " overlapped another call on the subscription (Reactive Streams §2.7)";
            }
        }
    };

    @Override
    public synchronized void subscribe(Subscriber<? super Integer> s) {
        if (subscriber != null) {
            throw new AssertionError("subscribed twice");
        }
        subscriber = s;
        if (onSubscribeInSubscribe) {
            onSubscribe();
        }
    }

    /** Hands the subscription to the subscriber, if there is one and it has none yet. */
    synchronized void onSubscribe() {
        if (subscriber != null && !subscribed) {
            subscribed = true;
            subscriber.onSubscribe(subscription);
        }
    }

    /** Sends the next element, if subscribed, not terminated and within the demand. */
    synchronized void onNext() {
        if (subscribed && !terminated && emitted < requested.get()) {
            subscriber.onNext(++emitted);
        }
    }

    /** Completes, if subscribed and not terminated. */
    synchronized void onComplete() {
        if (subscribed && !terminated) {
            terminated = true;
            subscriber.onComplete();
        }
    }

    /** Fails with {@link #ERROR}, if subscribed and not terminated. */
    synchronized void onError() {
        if (subscribed && !terminated) {
            terminated = true;
            errorSent = true;
            subscriber.onError(ERROR);
        }
    }

    /** Whether the subscription was handed to the subscriber. */
    synchronized boolean subscribed() {
        return subscribed;
    }

    /** Whether the publisher sent its terminal signal. */
    synchronized boolean terminated() {
        return terminated;
    }

    /** The elements sent. */
    synchronized int emitted() {
        return emitted;
    }
}
