package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromFlowableIgnoreElements} (a {@code FlowableSubscriber}, so a {@code Flowable} subscribes it unwrapped). */
public class RxFromFlowableIgnoreElementsWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromFlowableIgnoreElementsWhiteboxTest() {
        super(p -> RxSenders.fromFlowableIgnoreElements(Flowable.fromPublisher(p)));
    }
}
