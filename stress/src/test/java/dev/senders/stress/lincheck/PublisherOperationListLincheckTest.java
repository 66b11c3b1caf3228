package dev.senders.stress.lincheck;

import dev.senders.reactor.ReactorSenders;

/**
 * {@code PublisherOperation} in its buffering mode ({@link ReactorSenders#fromPublisherAll}):
 * requests unbounded, collects every element and completes with the list on {@code onComplete}.
 * The operations, results, invariants and hand-written scenarios are
 * {@link PublisherOperationScenario}'s; here, with Reactor's discard hook, the buffer changes owner
 * through the state word's BUSY bit, so a stop racing an {@code onNext} must still hand every
 * collected element to the hook exactly once.
 */
public class PublisherOperationListLincheckTest extends PublisherOperationScenario {

    public PublisherOperationListLincheckTest() {
        super(true);
    }

    @Override
    protected Class<?> specification() {
        return ListSpec.class;
    }

    /** The specification in this mode. */
    public static class ListSpec extends Spec {
        public ListSpec() {
            super(true);
        }
    }
}
