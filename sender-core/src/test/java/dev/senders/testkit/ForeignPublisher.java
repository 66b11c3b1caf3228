package dev.senders.testkit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A foreign publisher for the adapters' bad-input tests: it runs {@code script} against each
 * subscriber it gets, with a subscription that only counts {@code request} and {@code cancel}
 * calls, so a script can break any Reactive Streams rule. Test support, not published API.
 *
 * @param <T> the element type
 */
public final class ForeignPublisher<T> implements Publisher<T> {

    private final BiConsumer<Subscriber<? super T>, Subscription> script;
    /** How many times a subscriber called {@code cancel()}. */
    public final AtomicInteger cancels = new AtomicInteger();
    /** How many times a subscriber called {@code request(n)}. */
    public final AtomicInteger requests = new AtomicInteger();

    /** @param script what to do with the subscriber and the counting subscription */
    public ForeignPublisher(BiConsumer<Subscriber<? super T>, Subscription> script) {
        this.script = script;
    }

    @Override
    public void subscribe(Subscriber<? super T> s) {
        script.accept(s, new Subscription() {
            @Override
            public void request(long n) {
                requests.incrementAndGet();
            }

            @Override
            public void cancel() {
                cancels.incrementAndGet();
            }
        });
    }
}
