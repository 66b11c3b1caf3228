package dev.senders.tck;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.CountingScope;
import java.util.concurrent.TimeUnit;
import org.testng.annotations.AfterClass;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import reactor.core.publisher.Flux;

/**
 * The Reactive Streams TCK (TestNG, run by the JUnit Platform's testng-engine) against
 * {@link ReactorScopes#nest(org.reactivestreams.Publisher, dev.senders.scope.AsyncScopeToken)}: many elements, demand, cancel, §3.9, §3.13. The failed publisher is
 * a nest on a closed scope (it signals {@code onError(CancellationException)} without subscribing
 * upstream).
 */
public class ReactorScopesNestPublisherTest extends PublisherVerification<Long> {

    private final CountingScope scope = new CountingScope();

    public ReactorScopesNestPublisherTest() {
        super(new TestEnvironment(1000L, 200L));
    }

    @Override
    public Publisher<Long> createPublisher(long elements) {
        Flux<Long> source = elements == Long.MAX_VALUE
                ? Flux.generate(sink -> sink.next(1L))
                : Flux.<Long, Long>generate(() -> 0L, (i, sink) -> {
                    if (i == elements) {
                        sink.complete();
                    } else {
                        sink.next(i);
                    }
                    return i + 1;
                });
        return ReactorScopes.nest(source, scope.getToken());
    }

    @Override
    public Publisher<Long> createFailedPublisher() {
        CountingScope closed = new CountingScope();
        closed.close();
        return ReactorScopes.nest(Flux.just(1L), closed.getToken());
    }

    @Override
    public long maxElementsFromPublisher() {
        return Long.MAX_VALUE - 1;
    }

    /** The scope is application-like: closed, stopped and joined once the TCK is done with it. */
    @AfterClass(alwaysRun = true)
    public void joinTheScope() throws Exception {
        scope.close();
        scope.requestStop();
        Senders.toCompletableFuture(scope.join()).get(10, TimeUnit.SECONDS);
    }
}
