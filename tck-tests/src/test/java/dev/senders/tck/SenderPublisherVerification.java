package dev.senders.tck;

import dev.senders.Sender;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;

/**
 * {@link PublisherVerification} of a publisher the library makes from a sender. Such a publisher
 * has 0 or 1 element ({@code setValue(null)} is the empty one), so
 * {@link #maxElementsFromPublisher()} is 1 and the TCK itself skips the tests that need more
 * ("Unable to run this test, as required elements nr: N is higher than supported by given
 * producer: 1"). Synchronous variants adapt {@code just(..)} (the value is there before demand);
 * asynchronous ones complete on a pool thread, racing the subscriber's {@code request}/
 * {@code cancel}; their failed publisher is a <em>stopped</em> sender (an
 * {@code onError(CancellationException)}), the synchronous ones' a {@code justError}.
 */
abstract class SenderPublisherVerification extends PublisherVerification<Integer> {

    private final boolean async;

    SenderPublisherVerification(boolean async) {
        super(Tck.env());
        this.async = async;
    }

    /** The library's conversion under test. */
    abstract Publisher<Integer> adapt(Sender<Integer> sender);

    @Override
    public Publisher<Integer> createPublisher(long elements) {
        return adapt(async ? Harness.asyncSender(elements) : Harness.syncSender(elements));
    }

    @Override
    public Publisher<Integer> createFailedPublisher() {
        return adapt(async ? Harness.asyncStoppedSender() : Harness.failedSender());
    }

    @Override
    public long maxElementsFromPublisher() {
        return 1;
    }
}
