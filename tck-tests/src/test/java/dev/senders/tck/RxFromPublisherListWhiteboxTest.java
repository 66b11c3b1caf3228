package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromPublisherList(p)}. */
public class RxFromPublisherListWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromPublisherListWhiteboxTest() {
        super(p -> RxSenders.fromPublisherList(p));
    }
}
