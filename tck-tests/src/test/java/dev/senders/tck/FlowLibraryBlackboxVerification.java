package dev.senders.tck;

import dev.senders.Sender;
import java.util.concurrent.Flow;
import java.util.function.Function;
import org.reactivestreams.tck.flow.FlowSubscriberBlackboxVerification;

/** {@link LibraryBlackboxVerification} for the {@code java.util.concurrent.Flow} subscribers of core. */
abstract class FlowLibraryBlackboxVerification extends FlowSubscriberBlackboxVerification<Integer> {

    private final Function<Flow.Publisher<Integer>, Sender<?>> senderOver;

    FlowLibraryBlackboxVerification(Function<Flow.Publisher<Integer>, Sender<?>> senderOver) {
        super(Tck.env());
        this.senderOver = senderOver;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Flow.Subscriber<Integer> createFlowSubscriber() {
        Harness.Captured<Flow.Subscriber<? super Integer>> c =
                Harness.capture(sink -> senderOver.apply(sink::accept));
        return (Flow.Subscriber<Integer>) c.subscriber();
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
