package dev.senders.tck;

import dev.senders.reactor.ReactorSenders;

/**
 * SubscriberBlackboxVerification of the subscriber behind {@code toMono(fromMono(m).then(f))}, the
 * one operator a crossing and back is (subscribed by a {@code Mono}, unwrapped).
 */
public class ReactorStagedBlackboxTest extends LibraryBlackboxVerification {
    public ReactorStagedBlackboxTest() {
        super(p -> ReactorSenders.fromMono(ReactorSenders.toMono(
                ReactorSenders.fromMono(new CapturingMono<>(p)).then(v -> v))));
    }
}
