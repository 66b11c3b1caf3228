package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherAll(p)}. */
public class ReactorFromPublisherAllWhiteboxTest extends LibraryWhiteboxVerification {
    public ReactorFromPublisherAllWhiteboxTest() {
        super(p -> ReactorSenders.fromPublisherAll(p));
    }
}
