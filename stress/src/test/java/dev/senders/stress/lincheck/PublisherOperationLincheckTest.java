package dev.senders.stress.lincheck;

import dev.senders.reactor.ReactorSenders;

/**
 * {@code PublisherOperation} in its first-element mode ({@link ReactorSenders#fromPublisher}):
 * requests 1, completes with the first element and cancels, or with {@code null} on an empty
 * completion. The operations, results, invariants and hand-written scenarios are
 * {@link PublisherOperationScenario}'s; here the element and the stop request both claim the
 * completion and both want the cancel, which must happen once, after the request (§2.7).
 */
public class PublisherOperationLincheckTest extends PublisherOperationScenario {

    public PublisherOperationLincheckTest() {
        super(false);
    }

    @Override
    protected Class<?> specification() {
        return FirstSpec.class;
    }

    /** The specification in this mode. */
    public static class FirstSpec extends Spec {
        public FirstSpec() {
            super(false);
        }
    }
}
