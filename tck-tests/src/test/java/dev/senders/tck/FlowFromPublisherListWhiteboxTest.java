package dev.senders.tck;

import dev.senders.flow.FlowSenders;

/** FlowSubscriberWhiteboxVerification of the subscriber behind {@code FlowSenders.fromPublisherList(p)}. */
public class FlowFromPublisherListWhiteboxTest extends FlowLibraryWhiteboxVerification {
    public FlowFromPublisherListWhiteboxTest() {
        super(p -> FlowSenders.fromPublisherList(p));
    }
}
