package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromFlowableList} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableListWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromFlowableListWhiteboxTest() {
        super(p -> RxSenders.fromFlowableList(Flowable.fromPublisher(p)));
    }
}
