package dev.senders.tck;

import dev.senders.flow.FlowSenders;

/** FlowSubscriberBlackboxVerification of the subscriber behind {@code FlowSenders.fromPublisherList(p)}. */
public class FlowFromPublisherListBlackboxTest extends FlowLibraryBlackboxVerification {
    public FlowFromPublisherListBlackboxTest() {
        super(p -> FlowSenders.fromPublisherList(p));
    }
}
