package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.InplaceStopSource;
import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import io.reactivex.rxjava3.core.Single;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.PublisherProbe;

/**
 * One pipeline through Reactor, sender and RxJava stages,
 * {@code Mono -> sender -> Single -> sender -> Mono}
 * ({@code ReactorSenders.fromMono -> RxSenders.toSingle -> RxSenders.fromSingle -> ReactorSenders.toMono}).
 */
class MixingTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    private PluginErrors plugin;
    private final List<Throwable> reactorDropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void install() {
        plugin = new PluginErrors();
        reactor.core.publisher.Hooks.onErrorDropped(reactorDropped::add);
    }

    @AfterEach
    void reset() {
        reactor.core.publisher.Hooks.resetOnErrorDropped();
        plugin.close();
        assertEquals(List.of(), plugin.errors, "nothing undeliverable on the RxJava side");
        assertEquals(List.of(), reactorDropped, "nothing dropped on the Reactor side");
    }

    /** The pipeline under test, with an optional extra sender stage in the middle. */
    private static <T> Mono<T> pipeline(Mono<T> innermost, java.util.function.UnaryOperator<Sender<T>> middle) {
        Sender<T> first = ReactorSenders.fromMono(innermost);               // Mono   -> sender
        Single<T> single = RxSenders.toSingle(middle.apply(first));         // sender -> Single
        Sender<T> second = RxSenders.fromSingle(single);                    // Single -> sender
        return ReactorSenders.toMono(second);                               // sender -> Mono
    }

    private static <T> Mono<T> pipeline(Mono<T> innermost) {
        return pipeline(innermost, s -> s);
    }

    @Test
    @DisplayName("mixing: the value travels Mono -> sender -> Single -> sender -> Mono")
    void mixing_valueArrives() {
        StepVerifier.create(pipeline(Mono.just("hello")))
                .expectNext("hello")
                .expectComplete()
                .verify(HANG_GUARD);
    }

    @Test
    @DisplayName("mixing: an asynchronous value arrives too (each stage completes on the Mono's thread)")
    void mixing_asyncValueArrives() {
        StepVerifier.create(pipeline(Mono.just(42).delayElement(Duration.ofMillis(5))))
                .expectNext(42)
                .expectComplete()
                .verify(HANG_GUARD);
    }

    @Test
    @DisplayName("mixing: the innermost error arrives at the outer end as the same instance")
    void mixing_errorArrivesUnchanged() {
        IOException boom = new IOException("boom");
        StepVerifier.create(pipeline(Mono.<String>error(boom)))
                .expectErrorSatisfies(e -> assertSame(boom, e))
                .verify(HANG_GUARD);
    }

    @Test
    @DisplayName("mixing: cancel from the outer Mono's subscriber reaches the innermost source")
    void mixing_outerCancelReachesInnermostSource() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.never());
        StepVerifier.create(pipeline(probe.mono()))
                .expectSubscription()
                .then(probe::assertWasSubscribed)
                .thenCancel()
                .verify(HANG_GUARD);
        probe.assertWasCancelled();
    }

    @Test
    @DisplayName("mixing: a stop caused inside arrives at the outer end as CancellationException, and cancels the innermost source")
    void mixing_innerStopArrivesAsCancellationException() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.never());
        InplaceStopSource inside = new InplaceStopSource();
        StepVerifier.create(pipeline(probe.mono(), s -> s.stopWhen(inside.token())))
                .expectSubscription()
                .then(inside::requestStop)
                .expectErrorSatisfies(e -> assertInstanceOf(CancellationException.class, e))
                .verify(HANG_GUARD);
        probe.assertWasCancelled();
    }

    @Test
    @DisplayName("mixing: an innermost CancellationException is stopped in between and CancellationException outside")
    void mixing_innermostCancellationStaysStopped() {
        CancellationException stop = new CancellationException("inner stop");
        List<String> kinds = new CopyOnWriteArrayList<>();
        Mono<String> m = pipeline(Mono.<String>error(stop), s -> s.uponStopped(() -> {
            kinds.add("stopped");
            return "recovered";
        }));
        StepVerifier.create(m).expectNext("recovered").expectComplete().verify(HANG_GUARD);
        assertEquals(List.of("stopped"), kinds, "the sender stage saw setStopped, not an error");
        StepVerifier.create(pipeline(Mono.<String>error(stop)))
                .expectErrorSatisfies(e -> assertTrue(e instanceof CancellationException))
                .verify(HANG_GUARD);
    }
}
