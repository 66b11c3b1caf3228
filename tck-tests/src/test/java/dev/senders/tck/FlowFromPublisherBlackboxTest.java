package dev.senders.tck;

import dev.senders.flow.FlowSenders;

/** FlowSubscriberBlackboxVerification of the subscriber behind {@code FlowSenders.fromPublisher(p)}. */
public class FlowFromPublisherBlackboxTest extends FlowLibraryBlackboxVerification {
    public FlowFromPublisherBlackboxTest() {
        super(p -> FlowSenders.fromPublisher(p));
    }
}
