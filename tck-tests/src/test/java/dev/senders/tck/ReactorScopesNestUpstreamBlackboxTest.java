package dev.senders.tck;

import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.CountingScope;
import org.testng.annotations.AfterClass;
import java.util.concurrent.atomic.AtomicReference;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberBlackboxVerification;
import org.reactivestreams.tck.TestEnvironment;

/**
 * The Reactive Streams TCK against the {@code Subscriber} that {@link ReactorScopes#nest(org.reactivestreams.Publisher, dev.senders.scope.AsyncScopeToken)} subscribes
 * to its upstream (captured from a publisher that only records it), with an unbounded downstream.
 */
public class ReactorScopesNestUpstreamBlackboxTest extends SubscriberBlackboxVerification<Integer> {

    private final CountingScope scope = new CountingScope();

    public ReactorScopesNestUpstreamBlackboxTest() {
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

    /**
     * Closed and stopped, but not joined: the TCK creates subscribers it never subscribes, and a
     * nest subscription holds its association until its upstream calls {@code onSubscribe}
     * (decision RAS4: a publisher that breaks RS §1.9 keeps the scope
     * from joining). Joining here would wait for those forever.
     */
    @AfterClass(alwaysRun = true)
    public void closeTheScope() {
        scope.close();
        scope.requestStop();
    }
}
