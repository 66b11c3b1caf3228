package dev.senders.tck;

/** FlowPublisherVerification of {@code FlowSenders.toPublisher(Senders.just(..))}. */
public class FlowToPublisherPublisherTest extends SenderFlowPublisherVerification {
    public FlowToPublisherPublisherTest() {
        super(false);
    }
}
