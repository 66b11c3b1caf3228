package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code ReactorSenders.fromPublisher(p)}. */
public class ReactorFromPublisherBlackboxTest extends LibraryBlackboxVerification {
    public ReactorFromPublisherBlackboxTest() {
        super(p -> ReactorSenders.fromPublisher(p));
    }
}
