package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherIgnoreElements(p)}. */
public class ReactorFromPublisherIgnoreElementsBlackboxTest extends LibraryBlackboxVerification {
    public ReactorFromPublisherIgnoreElementsBlackboxTest() {
        super(p -> ReactorSenders.fromPublisherIgnoreElements(p));
    }
}
