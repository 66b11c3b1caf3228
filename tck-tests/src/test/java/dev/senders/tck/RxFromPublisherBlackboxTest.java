package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code RxSenders.fromPublisher(p)}. */
public class RxFromPublisherBlackboxTest extends LibraryBlackboxVerification {
    public RxFromPublisherBlackboxTest() {
        super(p -> RxSenders.fromPublisher(p));
    }
}
