package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code ReactorSenders.toFlux(Senders.just(..))}. */
public class ReactorToFluxPublisherTest extends SenderPublisherVerification {
    public ReactorToFluxPublisherTest() {
        super(false);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return ReactorSenders.toFlux(sender);
    }
}
