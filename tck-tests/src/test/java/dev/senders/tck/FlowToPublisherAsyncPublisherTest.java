package dev.senders.tck;

/** FlowPublisherVerification of {@code FlowSenders.toPublisher(a sender completing on a pool thread)}. */
public class FlowToPublisherAsyncPublisherTest extends SenderFlowPublisherVerification {
    public FlowToPublisherAsyncPublisherTest() {
        super(true);
    }
}
