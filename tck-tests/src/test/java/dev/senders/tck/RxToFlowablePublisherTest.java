package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.rxjava3.RxSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code RxSenders.toFlowable(Senders.just(..))}. */
public class RxToFlowablePublisherTest extends SenderPublisherVerification {
    public RxToFlowablePublisherTest() {
        super(false);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return RxSenders.toFlowable(sender);
    }
}
