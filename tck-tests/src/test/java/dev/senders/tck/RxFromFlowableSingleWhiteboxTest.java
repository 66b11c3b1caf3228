package dev.senders.tck;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Flowable;
import org.testng.SkipException;
import org.testng.annotations.Test;

/** SubscriberWhiteboxVerification of the subscriber behind {@code RxSenders.fromFlowableSingle} (inside RxJava's {@code StrictSubscriber}, as a {@code Flowable} subscribes it). */
public class RxFromFlowableSingleWhiteboxTest extends LibraryWhiteboxVerification {
    public RxFromFlowableSingleWhiteboxTest() {
        super(p -> RxSenders.fromFlowableSingle(Flowable.fromPublisher(p)));
    }

    /** Explicit skip: {@link Skips#RX_STRICT_SUBSCRIBER_ON_ERROR_NULL}. */
    @Override
    @Test
    public void required_spec213_onError_mustThrowNullPointerExceptionWhenParametersAreNull() {
        throw new SkipException(Skips.RX_STRICT_SUBSCRIBER_ON_ERROR_NULL);
    }
}
