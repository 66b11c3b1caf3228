package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code ReactorSenders.toMono(a sender completing on a pool thread)}. */
public class ReactorToMonoAsyncPublisherTest extends SenderPublisherVerification {
    public ReactorToMonoAsyncPublisherTest() {
        super(true);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return ReactorSenders.toMono(sender);
    }
}
