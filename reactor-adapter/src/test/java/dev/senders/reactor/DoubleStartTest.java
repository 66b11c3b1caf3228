package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.testkit.DoubleStart;
import dev.senders.testkit.DoubleStart.Case;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The double-start rule ({@link DoubleStart}, decision H2) on every operation reactor-adapter
 * makes: the subscriber of each {@code from*} mode, the scheduler's {@code schedule()}, and the
 * operation of a {@link ReactorScopes#nest} subscription, which only a scope token's {@code wrap}
 * can start (so a token that starts it twice).
 */
class DoubleStartTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    void aSecondStartThrowsAViolationAndTheReceiverCompletesOnce(String name, Case c) {
        DoubleStart.check(name, c);
    }

    static List<Arguments> operations() {
        return List.of(
                Arguments.of("ReactorSenders.fromMono", new Case(ReactorSenders.fromMono(Mono.just(1)))),
                Arguments.of("ReactorSenders.fromPublisher", new Case(ReactorSenders.fromPublisher(Flux.just(1, 2)))),
                Arguments.of("ReactorSenders.fromPublisherSingle",
                        new Case(ReactorSenders.fromPublisherSingle(Flux.just(1)))),
                Arguments.of("ReactorSenders.fromPublisherAll", new Case(ReactorSenders.fromPublisherAll(Flux.just(1, 2)))),
                Arguments.of("ReactorSchedulers.from(...).schedule()", new Case(
                        ReactorSchedulers.from(reactor.core.scheduler.Schedulers.immediate()).schedule())));
    }

    @Test
    void theOperationOfANestSubscriptionStartedTwiceThrowsAViolationAndTheSubscriptionRunsOnce() {
        SimpleCountingScope scope = new SimpleCountingScope();
        AtomicReference<Throwable> secondStart = new AtomicReference<>();
        AsyncScopeToken startsTwice = new AsyncScopeToken() {
            @Override
            public boolean tryAssociate() {
                return scope.getToken().tryAssociate();
            }

            @Override
            public void dissociate() {
                scope.getToken().dissociate();
            }

            @Override
            public <T> Sender<T> wrap(Sender<T> sender) {
                return r -> {
                    OperationState op = sender.connect(r);
                    return () -> {
                        op.start();
                        try {
                            op.start();
                        } catch (RuntimeException e) {
                            secondStart.set(e);
                        }
                    };
                };
            }
        };
        List<Integer> got = ReactorScopes.nest(Flux.just(1, 2), startsTwice).collectList().block(Duration.ofSeconds(10));
        assertEquals(List.of(1, 2), got);
        assertInstanceOf(ProtocolViolationException.class, secondStart.get());
        assertTrue(secondStart.get().getMessage().startsWith("start() was called twice on "), secondStart.get().getMessage());
        assertEquals(0, scope.count(), "the subscription's association was released once");
    }
}
