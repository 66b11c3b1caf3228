package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code ReactorSenders.fromPublisherLast(p)}. */
public class ReactorFromPublisherLastBlackboxTest extends LibraryBlackboxVerification {
    public ReactorFromPublisherLastBlackboxTest() {
        super(p -> ReactorSenders.fromPublisherLast(p));
    }
}
