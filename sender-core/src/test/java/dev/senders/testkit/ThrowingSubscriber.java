package dev.senders.testkit;

import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A subscriber that breaks Reactive Streams §2.13 for the adapters' bad-input tests: it requests
 * one element and throws {@code boom} from {@code onNext} or from {@code onError}; it counts the
 * terminal signals it gets. Test support, not published API.
 *
 * @param <T> the element type
 */
public final class ThrowingSubscriber<T> implements Subscriber<T> {

    private final RuntimeException boom;
    private final boolean fromOnNext;
    /** How many terminal signals ({@code onError}, {@code onComplete}) arrived. */
    public final AtomicInteger terminal = new AtomicInteger();

    private ThrowingSubscriber(RuntimeException boom, boolean fromOnNext) {
        this.boom = boom;
        this.fromOnNext = fromOnNext;
    }

    /** A subscriber that throws {@code boom} from {@code onNext}. */
    public static <T> ThrowingSubscriber<T> fromOnNext(RuntimeException boom) {
        return new ThrowingSubscriber<>(boom, true);
    }

    /** A subscriber that throws {@code boom} from {@code onError}. */
    public static <T> ThrowingSubscriber<T> fromOnError(RuntimeException boom) {
        return new ThrowingSubscriber<>(boom, false);
    }

    @Override
    public void onSubscribe(Subscription s) {
        s.request(1);
    }

    @Override
    public void onNext(T value) {
        if (fromOnNext) {
            throw boom;
        }
    }

    @Override
    public void onError(Throwable t) {
        terminal.incrementAndGet();
        if (!fromOnNext) {
            throw boom;
        }
    }

    @Override
    public void onComplete() {
        terminal.incrementAndGet();
    }
}
