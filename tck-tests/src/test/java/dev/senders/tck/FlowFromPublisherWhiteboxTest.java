package dev.senders.tck;

import dev.senders.flow.FlowSenders;

/** FlowSubscriberWhiteboxVerification of the subscriber behind {@code FlowSenders.fromPublisher(p)}. */
public class FlowFromPublisherWhiteboxTest extends FlowLibraryWhiteboxVerification {
    public FlowFromPublisherWhiteboxTest() {
        super(p -> FlowSenders.fromPublisher(p));
    }
}
