package dev.senders.reactor;

import dev.senders.scope.CountingScope;
import java.util.concurrent.atomic.AtomicReference;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberBlackboxVerification;
import org.reactivestreams.tck.TestEnvironment;

/**
 * The Reactive Streams TCK against the {@code Subscriber} that {@link ReactorScopes#nest} subscribes
 * to its upstream (captured from a publisher that only records it), with an unbounded downstream.
 */
public class NestSubscriberTckTest extends SubscriberBlackboxVerification<Integer> {

    private final CountingScope scope = new CountingScope();

    public NestSubscriberTckTest() {
        super(new TestEnvironment(1000L, 200L));
    }

    @Override
    public Subscriber<Integer> createSubscriber() {
        AtomicReference<Subscriber<? super Integer>> captured = new AtomicReference<>();
        Publisher<Integer> capturing = captured::set;
        ReactorScopes.nest(capturing, scope.getToken()).subscribe(v -> { }, e -> { });
        @SuppressWarnings("unchecked")
        Subscriber<Integer> s = (Subscriber<Integer>) captured.get();
        return s;
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
