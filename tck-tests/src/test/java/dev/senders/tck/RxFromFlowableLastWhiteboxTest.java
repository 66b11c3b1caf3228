package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromFlowableLast} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableLastWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromFlowableLastWhiteboxTest() {
        super(p -> RxSenders.fromFlowableLast(Flowable.fromPublisher(p)));
    }
}
