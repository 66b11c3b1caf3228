package dev.senders.tck;

import dev.senders.Sender;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberWhiteboxVerification;

/**
 * {@link SubscriberWhiteboxVerification} of the subscriber a {@code fromPublisher}-style sender
 * subscribes to a foreign publisher, seen through a {@link ProbingSubscriber}.
 */
abstract class LibraryWhiteboxVerification extends SubscriberWhiteboxVerification<Integer> {

    private final Function<Publisher<Integer>, Sender<?>> senderOver;

    LibraryWhiteboxVerification(Function<Publisher<Integer>, Sender<?>> senderOver) {
        super(Tck.env());
        this.senderOver = senderOver;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Subscriber<Integer> createSubscriber(WhiteboxSubscriberProbe<Integer> probe) {
        Harness.Captured c = Harness.<Subscriber<? super Integer>>capture(sink -> senderOver.apply(sink::accept));
        return new ProbingSubscriber<Integer>((Harness.Captured<Subscriber<Integer>>) c, probe);
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
