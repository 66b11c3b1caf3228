package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code ReactorSenders.fromPublisher(p)}. */
public class ReactorFromPublisherWhiteboxTest extends LibraryWhiteboxVerification {
    public ReactorFromPublisherWhiteboxTest() {
        super(p -> ReactorSenders.fromPublisher(p));
    }
}
