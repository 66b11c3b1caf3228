package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherIgnoreElements(p)}. */
public class ReactorFromPublisherIgnoreElementsWhiteboxTest extends LibraryWhiteboxVerification {
    public ReactorFromPublisherIgnoreElementsWhiteboxTest() {
        super(p -> ReactorSenders.fromPublisherIgnoreElements(p));
    }
}
