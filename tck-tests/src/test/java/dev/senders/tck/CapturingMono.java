package dev.senders.tck;

import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * A {@code Mono} that hands its subscriber, unwrapped, to a capturing publisher: what
 * {@code ReactorSenders.fromMono*} subscribes is a {@code CoreSubscriber}, so Reactor passes it
 * through as it is, and the TCK drives exactly the library's subscriber.
 */
final class CapturingMono<T> extends Mono<T> {

    private final Publisher<T> capture;

    CapturingMono(Publisher<T> capture) {
        this.capture = capture;
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        capture.subscribe(actual);
    }
}
