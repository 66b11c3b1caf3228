package dev.senders.tck;

/** The written justifications of the few TCK tests skipped explicitly (see README.md, "Skips"). */
final class Skips {

    private Skips() {}

    /**
     * {@code RxSenders.fromFlowableSingle/Last} take a {@code Flowable}; a {@code Flowable} wraps
     * the library's plain {@code Subscriber} in RxJava's own {@code StrictSubscriber}, so that is
     * the object a foreign publisher (and the TCK) calls. {@code StrictSubscriber.onError(null)}
     * does not throw (RxJava 3.1.10 hands it to its {@code HalfSerializer}, which does not
     * null-check it), so §2.13 for {@code onError} is RxJava's to keep and cannot be checked here;
     * the library's own subscriber throws as required, verified unwrapped by
     * {@code RxFromPublisher*}.
     */
    static final String RX_STRICT_SUBSCRIBER_ON_ERROR_NULL =
            "RS 2.13 onError(null) is RxJava's StrictSubscriber's to enforce here (it wraps the library's"
            + " subscriber whenever a Flowable subscribes it, and does not throw); the library's own subscriber"
            + " is verified unwrapped by RxFromPublisher*Test";
}
