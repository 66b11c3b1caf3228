package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherAll(p)}. */
public class ReactorFromPublisherAllBlackboxTest extends LibraryBlackboxVerification {
    public ReactorFromPublisherAllBlackboxTest() {
        super(p -> ReactorSenders.fromPublisherAll(p));
    }
}
