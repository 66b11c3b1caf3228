package dev.senders.stress;

import reactor.core.CoreSubscriber;

/**
 * A {@link CapturingMono} that behaves as an asynchronous source: {@code subscribe} calls
 * {@code onSubscribe}, hands the subscriber to the test only then (so a terminal signal the test
 * sends never precedes {@code onSubscribe}), and returns without a terminal signal.
 */
final class AsyncShapedMono extends CapturingMono {

    @Override
    public void subscribe(CoreSubscriber<? super Object> s) {
        s.onSubscribe(this);
        subscriber = s;
    }

    /** Completes the subscriber if it was subscribed yet; {@code true} if it did. */
    boolean completeIfSubscribed() {
        CoreSubscriber<? super Object> s = subscriber;
        if (s == null) {
            return false;
        }
        s.onComplete();
        return true;
    }
}
