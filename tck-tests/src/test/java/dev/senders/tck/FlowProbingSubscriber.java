package dev.senders.tck;

import java.util.concurrent.Flow;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.SubscriberPuppet;
import org.reactivestreams.tck.SubscriberWhiteboxVerification.WhiteboxSubscriberProbe;

/** {@link ProbingSubscriber} for {@link java.util.concurrent.Flow} subscribers: same rules. */
final class FlowProbingSubscriber<T> implements Flow.Subscriber<T> {

    private final Flow.Subscriber<T> library;
    private final WhiteboxSubscriberProbe<T> probe;
    private final Harness.Recorder recorder;
    private boolean subscribed;

    FlowProbingSubscriber(Harness.Captured<Flow.Subscriber<T>> captured, WhiteboxSubscriberProbe<T> probe) {
        this.library = captured.subscriber();
        this.recorder = captured.recorder();
        this.probe = probe;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        if (s == null || subscribed) {
            library.onSubscribe(s); // §2.13 and §2.5
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

    static final class DemandTracking implements Flow.Subscription {
        private final Flow.Subscription upstream;
        private long requested;
        private long wanted;

        DemandTracking(Flow.Subscription upstream) {
            this.upstream = upstream;
        }

        @Override
        public void request(long n) {
            synchronized (this) {
                requested = n > 0 ? ProbingSubscriber.DemandTracking.saturatedAdd(requested, n) : requested;
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
                wanted = ProbingSubscriber.DemandTracking.saturatedAdd(wanted, n);
                shortfall = wanted - requested;
                if (shortfall > 0) {
                    requested = wanted;
                }
            }
            if (shortfall > 0) {
                upstream.request(shortfall);
            }
        }
    }
}
