package dev.senders.tck;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.SubscriberPuppet;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.WhiteboxSubscriberProbe;

/**
 * The whitebox view of a library subscriber (Reactive Streams interfaces): every signal goes to
 * the library's subscriber first, then, if it returned normally, to the TCK's
 * {@link WhiteboxSubscriberProbe}. The probe gets a {@link SubscriberPuppet} when the first
 * {@code onSubscribe} returned:
 *
 * <ul>
 * <li>{@code signalCancel()} requests stop on the operation's stop token: the library's own cancel
 *     path (docs/design.md: stop requested on the receiver's token = {@code Subscription.cancel()}).
 * <li>{@code triggerRequest(n)}: the TCK's contract is "make sure at least n more elements are
 *     eventually requested, if the subscriber has not already requested that many". The library
 *     subscribers request once, in {@code onSubscribe} (1 for first-element selections, unbounded
 *     for the others), so the puppet counts what the library requested and requests only the
 *     shortfall itself. That is a no-op for the unbounded ones; for the first-element ones it is
 *     the extra demand the TCK's multi-element scenarios need, and the library must then ignore
 *     the elements that follow its own cancel (§2.8), which is part of what those tests check.
 * </ul>
 */
final class ProbingSubscriber<T> implements Subscriber<T> {

    private final Subscriber<T> library;
    private final WhiteboxSubscriberProbe<T> probe;
    private final Harness.Recorder recorder;
    private boolean subscribed;

    ProbingSubscriber(Harness.Captured<Subscriber<T>> captured, WhiteboxSubscriberProbe<T> probe) {
        this.library = captured.subscriber();
        this.recorder = captured.recorder();
        this.probe = probe;
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (s == null || subscribed) {
            library.onSubscribe(s); // §2.13 (must throw NPE) and §2.5 (must cancel the second one)
            return;
        }
        subscribed = true;
        DemandTracking tracked = new DemandTracking(s);
        library.onSubscribe(tracked);
        probe.registerOnSubscribe(new SubscriberPuppet() {
            @Override
            public void triggerRequest(long elements) {
                tracked.ensureWanted(elements);
            }

            @Override
            public void signalCancel() {
                recorder.requestStop();
            }
        });
    }

    @Override
    public void onNext(T t) {
        library.onNext(t); // onNext(null) must throw NPE here (§2.13): the probe must not mask it
        if (t != null) {
            probe.registerOnNext(t);
        }
    }

    @Override
    public void onError(Throwable t) {
        library.onError(t); // onError(null) must throw NPE here (§2.13): the probe must not mask it
        if (t != null) {
            probe.registerOnError(t);
        }
    }

    @Override
    public void onComplete() {
        library.onComplete();
        probe.registerOnComplete();
    }

    /** The subscription the library sees: forwards, and counts the library's demand. */
    static final class DemandTracking implements Subscription {
        private final Subscription upstream;
        private long requested; // by the library and by the puppet
        private long wanted;    // by the puppet (cumulative triggerRequest amounts)

        DemandTracking(Subscription upstream) {
            this.upstream = upstream;
        }

        @Override
        public void request(long n) {
            synchronized (this) {
                requested = n > 0 ? saturatedAdd(requested, n) : requested;
            }
            upstream.request(n);
        }

        @Override
        public void cancel() {
            upstream.cancel();
        }

        void ensureWanted(long n) {
            long shortfall;
            synchronized (this) {
                wanted = saturatedAdd(wanted, n);
                shortfall = wanted - requested;
                if (shortfall > 0) {
                    requested = wanted;
                }
            }
            if (shortfall > 0) {
                upstream.request(shortfall);
            }
        }

        static long saturatedAdd(long a, long b) {
            long r = a + b;
            return r < 0 ? Long.MAX_VALUE : r;
        }
    }
}
