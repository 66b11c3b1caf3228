package dev.senders.tck;

import dev.senders.Sender;
import dev.senders.rxjava3.RxSenders;
import org.reactivestreams.Publisher;

/** PublisherVerification of {@code RxSenders.toFlowable(a sender completing on a pool thread)}. */
public class RxToFlowableAsyncPublisherTest extends SenderPublisherVerification {
    public RxToFlowableAsyncPublisherTest() {
        super(true);
    }

    @Override
    Publisher<Integer> adapt(Sender<Integer> sender) {
        return RxSenders.toFlowable(sender);
    }
}
