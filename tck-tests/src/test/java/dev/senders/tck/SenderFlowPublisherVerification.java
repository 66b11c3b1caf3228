package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.flow.FlowSenders;
import java.util.concurrent.Flow;
import org.reactivestreams.tck.flow.FlowPublisherVerification;

/** {@link SenderPublisherVerification} for {@link FlowSenders#toPublisher}, through the TCK's Flow variant. */
abstract class SenderFlowPublisherVerification extends FlowPublisherVerification<Integer> {

    private final boolean async;

    SenderFlowPublisherVerification(boolean async) {
        super(Tck.env());
        this.async = async;
    }

    private static Flow.Publisher<Integer> adapt(Sender<Integer> sender) {
        return FlowSenders.toPublisher(sender);
    }

    @Override
    public Flow.Publisher<Integer> createFlowPublisher(long elements) {
        return adapt(async ? Harness.asyncSender(elements) : Harness.syncSender(elements));
    }

    @Override
    public Flow.Publisher<Integer> createFailedFlowPublisher() {
        return adapt(async ? Harness.asyncStoppedSender() : Harness.failedSender());
    }

    @Override
    public long maxElementsFromPublisher() {
        return 1;
    }
}
