package dev.senders.tck;

import dev.senders.Sender;
import java.util.concurrent.Flow;
import java.util.function.Function;
import org.reactivestreams.tck.flow.FlowSubscriberWhiteboxVerification;

/** {@link LibraryWhiteboxVerification} for the {@code java.util.concurrent.Flow} subscribers of core. */
abstract class FlowLibraryWhiteboxVerification extends FlowSubscriberWhiteboxVerification<Integer> {

    private final Function<Flow.Publisher<Integer>, Sender<?>> senderOver;

    FlowLibraryWhiteboxVerification(Function<Flow.Publisher<Integer>, Sender<?>> senderOver) {
        super(Tck.env());
        this.senderOver = senderOver;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Flow.Subscriber<Integer> createFlowSubscriber(WhiteboxSubscriberProbe<Integer> probe) {
        Harness.Captured c = Harness.<Flow.Subscriber<? super Integer>>capture(sink -> senderOver.apply(sink::accept));
        return new FlowProbingSubscriber<Integer>((Harness.Captured<Flow.Subscriber<Integer>>) c, probe);
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
