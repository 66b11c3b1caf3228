package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromFlowableSingle} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableSingleWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromFlowableSingleWhiteboxTest() {
        super(p -> RxSenders.fromFlowableSingle(Flowable.fromPublisher(p)));
    }
}
