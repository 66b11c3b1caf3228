package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code RxSenders.fromPublisherList(p)}. */
public class RxFromPublisherListBlackboxTest extends LibraryBlackboxVerification {
    public RxFromPublisherListBlackboxTest() {
        super(p -> RxSenders.fromPublisherList(p));
    }
}
