package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherSingle(p)}. */
public class ReactorFromPublisherSingleBlackboxTest extends LibraryBlackboxVerification {
    public ReactorFromPublisherSingleBlackboxTest() {
        super(p -> ReactorSenders.fromPublisherSingle(p));
    }
}
