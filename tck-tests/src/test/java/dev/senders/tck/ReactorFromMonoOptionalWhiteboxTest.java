package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/** SubscriberWhiteboxVerification of the subscriber behind {@code ReactorSenders.fromMonoOptional} (subscribed by a {@code Mono}, unwrapped). */
public class ReactorFromMonoOptionalWhiteboxTest extends LibraryWhiteboxVerification {
    public ReactorFromMonoOptionalWhiteboxTest() {
        super(p -> ReactorSenders.fromMonoOptional(new CapturingMono<>(p)));
    }
}
