package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberBlackboxVerification of the subscriber behind {@code RxSenders.fromFlowableList} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableListBlackboxTest extends LibraryBlackboxVerification {
    public RxFromFlowableListBlackboxTest() {
        super(p -> RxSenders.fromFlowableList(Flowable.fromPublisher(p)));
    }
}
