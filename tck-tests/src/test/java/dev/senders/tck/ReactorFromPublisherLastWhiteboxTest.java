package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherLast(p)}. */
public class ReactorFromPublisherLastWhiteboxTest extends LibraryWhiteboxVerification {
    public ReactorFromPublisherLastWhiteboxTest() {
        super(p -> ReactorSenders.fromPublisherLast(p));
    }
}
