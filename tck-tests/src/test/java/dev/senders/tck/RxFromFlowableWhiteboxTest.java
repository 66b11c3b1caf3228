package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromFlowable} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromFlowableWhiteboxTest() {
        super(p -> RxSenders.fromFlowable(Flowable.fromPublisher(p)));
    }
}
