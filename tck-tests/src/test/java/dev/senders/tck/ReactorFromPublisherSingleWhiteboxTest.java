package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherSingle(p)}. */
public class ReactorFromPublisherSingleWhiteboxTest extends LibraryWhiteboxVerification {
    public ReactorFromPublisherSingleWhiteboxTest() {
        super(p -> ReactorSenders.fromPublisherSingle(p));
    }
}
