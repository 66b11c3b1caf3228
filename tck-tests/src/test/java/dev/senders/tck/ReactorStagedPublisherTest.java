package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code toMono(fromMono(m).then(f))}, one operator over {@code m} (here {@code m} is {@code toMono(sender)}). */
public class ReactorStagedPublisherTest extends SenderPublisherVerification {
    public ReactorStagedPublisherTest() {
        super(false);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return ReactorSenders.toMono(ReactorSenders.fromMono(ReactorSenders.toMono(sender)).then(v -> v));
    }
}
