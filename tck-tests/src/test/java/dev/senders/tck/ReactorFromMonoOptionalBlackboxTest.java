package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberBlackboxVerification of the subscriber behind {@code ReactorSenders.fromMonoOptional} (subscribed by a {@code Mono}, unwrapped). */
public class ReactorFromMonoOptionalBlackboxTest extends LibraryBlackboxVerification {
    public ReactorFromMonoOptionalBlackboxTest() {
        super(p -> ReactorSenders.fromMonoOptional(new CapturingMono<>(p)));
    }
}
