package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberBlackboxVerification of the subscriber behind {@code RxSenders.fromFlowableSingle} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableSingleBlackboxTest extends LibraryBlackboxVerification {
    public RxFromFlowableSingleBlackboxTest() {
        super(p -> RxSenders.fromFlowableSingle(Flowable.fromPublisher(p)));
    }
}
