package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import org.reactivestreams.Publisher;

/** {@link ReactorStagedPublisherTest} with a sender that completes on another thread, racing the subscriber. */
public class ReactorStagedAsyncPublisherTest extends SenderPublisherVerification {
    public ReactorStagedAsyncPublisherTest() {
        super(true);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return ReactorSenders.toMono(ReactorSenders.fromMono(ReactorSenders.toMono(sender)).then(v -> v));
    }
}
