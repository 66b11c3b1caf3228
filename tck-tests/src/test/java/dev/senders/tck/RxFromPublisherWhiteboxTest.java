package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromPublisher(p)}. */
public class RxFromPublisherWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromPublisherWhiteboxTest() {
        super(p -> RxSenders.fromPublisher(p));
    }
}
