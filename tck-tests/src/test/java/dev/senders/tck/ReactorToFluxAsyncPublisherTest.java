package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code ReactorSenders.toFlux(a sender completing on a pool thread)}. */
public class ReactorToFluxAsyncPublisherTest extends SenderPublisherVerification {
    public ReactorToFluxAsyncPublisherTest() {
        super(true);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return ReactorSenders.toFlux(sender);
    }
}
