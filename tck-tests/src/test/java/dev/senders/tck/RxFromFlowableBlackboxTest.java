package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberBlackboxVerification of the subscriber behind {@code RxSenders.fromFlowable} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableBlackboxTest extends LibraryBlackboxVerification {
    public RxFromFlowableBlackboxTest() {
        super(p -> RxSenders.fromFlowable(Flowable.fromPublisher(p)));
    }
}
