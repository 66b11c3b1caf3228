package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code ReactorSenders.toMono(Senders.just(..))}. */
public class ReactorToMonoPublisherTest extends SenderPublisherVerification {
    public ReactorToMonoPublisherTest() {
        super(false);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return ReactorSenders.toMono(sender);
    }
}
