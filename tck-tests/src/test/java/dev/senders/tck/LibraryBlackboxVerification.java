package dev.senders.tck;

import dev.senders.Sender;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberBlackboxVerification;

/**
 * {@link SubscriberBlackboxVerification} of the subscriber a {@code fromPublisher}-style sender
 * subscribes to a foreign publisher (captured as {@link Harness} explains). The library's
 * subscribers signal demand by themselves in {@code onSubscribe}, so {@code triggerRequest} is the
 * TCK's default no-op.
 */
abstract class LibraryBlackboxVerification extends SubscriberBlackboxVerification<Integer> {

    private final Function<Publisher<Integer>, Sender<?>> senderOver;

    LibraryBlackboxVerification(Function<Publisher<Integer>, Sender<?>> senderOver) {
        super(Tck.env());
        this.senderOver = senderOver;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Subscriber<Integer> createSubscriber() {
        Harness.Captured<Subscriber<? super Integer>> c =
                Harness.capture(sink -> senderOver.apply(sink::accept));
        return (Subscriber<Integer>) c.subscriber();
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
