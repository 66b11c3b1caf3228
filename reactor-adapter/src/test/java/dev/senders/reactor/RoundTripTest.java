package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Query;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.PublisherProbe;
import reactor.test.publisher.TestPublisher;
import reactor.util.context.Context;

/** The Reactive Streams boundary (docs/design.md): conversions compose back to what they started from. */
class RoundTripTest {

    static <T> Sender<T> senderMonoSender(Sender<T> s) {
        return ReactorSenders.fromMono(ReactorSenders.toMono(s));
    }

    static <T> Mono<T> monoSenderMono(Mono<T> m) {
        return ReactorSenders.toMono(ReactorSenders.fromMono(m));
    }

    @Test
    void senderMonoSender_preservesValue() {
        TestReceiver<String> r = FromPublisherTest.run(senderMonoSender(Senders.just("v")));
        assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
        assertEquals("v", r.value());
    }

    @Test
    void senderMonoSender_preservesNull() {
        TestReceiver<String> r = FromPublisherTest.run(senderMonoSender(Senders.just(null)));
        assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
        assertNull(r.value());
    }

    @Test
    void senderMonoSender_preservesError() {
        IllegalStateException boom = new IllegalStateException("boom");
        TestReceiver<Object> r = FromPublisherTest.run(senderMonoSender(Senders.justError(boom)));
        assertEquals(TestReceiver.Kind.ERROR, r.awaitKind());
        assertSame(boom, r.error());
    }

    @Test
    void senderMonoSender_preservesStopped() {
        TestReceiver<Object> r = FromPublisherTest.run(senderMonoSender(Senders.justStopped()));
        assertEquals(TestReceiver.Kind.STOPPED, r.awaitKind());
    }

    @Test
    void senderMonoSender_stopRequestReachesTheInnerSender() {
        ManualSender<String> inner = new ManualSender<>();
        TestReceiver<String> r = FromPublisherTest.run(senderMonoSender(inner));
        assertEquals(1, inner.started().size());
        r.requestStop();
        assertTrue(inner.receiver().env().stopToken().stopRequested());
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        inner.receiver().setStopped(); // its answer is swallowed: the outer receiver already has its one completion
        assertEquals(1, r.completions());
    }

    @Test
    void senderMonoSender_keepsTheOuterEnvsQueries() {
        Query<Integer> tenant = Query.named("tenant");
        TestReceiver<Integer> r = TestReceiver.withStopSource(Env.of(tenant, 42));
        senderMonoSender(Senders.read(tenant)).connect(r).start();
        assertEquals(42, r.value());
    }

    @Test
    void monoSenderMono_preservesValue() {
        StepVerifier.create(monoSenderMono(Mono.just(1))).expectNext(1).verifyComplete();
    }

    @Test
    void monoSenderMono_preservesEmpty() {
        StepVerifier.create(monoSenderMono(Mono.empty())).verifyComplete();
    }

    @Test
    void monoSenderMono_preservesError() {
        StepVerifier.create(monoSenderMono(Mono.error(new IllegalStateException("boom"))))
                .verifyErrorMessage("boom");
    }

    @Test
    void monoSenderMono_cancellationReachesTheSource() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.never());
        StepVerifier.create(monoSenderMono(probe.mono()))
                .expectSubscription()
                .then(probe::assertWasSubscribed)
                .thenCancel()
                .verify(Duration.ofSeconds(10)); // hang guard only
        probe.assertWasCancelled();
    }

    @Test
    void monoSenderMono_cancellationReachesATestPublisher() {
        TestPublisher<String> pub = TestPublisher.create();
        StepVerifier.create(ReactorSenders.toMono(ReactorSenders.fromPublisher(pub)))
                .then(pub::assertWasSubscribed)
                .thenCancel()
                .verify(Duration.ofSeconds(10));
        pub.assertCancelled();
    }

    @Test
    void monoSenderMono_valueWaitsForDemand() {
        StepVerifier.create(monoSenderMono(Mono.just("x")), 0)
                .expectSubscription()
                .thenRequest(1)
                .expectNext("x")
                .verifyComplete();
    }

    @Test
    void monoSenderMono_upstreamCancellationExceptionTravelsAsStoppedAndBack() {
        StepVerifier.create(monoSenderMono(Mono.error(new CancellationException("upstream"))))
                .expectError(CancellationException.class).verify();
    }

    @Test
    void contextWrittenDownstreamOfTheSandwichReachesTheInnermostMono() {
        Mono<String> inner = Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("traceId")));
        Mono<String> sandwich = ReactorSenders.toMono(ReactorSenders.fromMono(inner))
                .contextWrite(Context.of("traceId", "abc-123"));
        StepVerifier.create(sandwich).expectNext("abc-123").verifyComplete();
    }

    @Test
    void contextThroughTwoSandwichLayers() {
        Mono<String> inner = Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("k")));
        Mono<String> twice = monoSenderMono(monoSenderMono(inner)).contextWrite(Context.of("k", "deep"));
        StepVerifier.create(twice).expectNext("deep").verifyComplete();
    }

    // ---- the literal round trip is the identity, like Mono.from(mono) ----

    @Test
    void roundTripReturnsTheOriginalMono() {
        Mono<String> m = Mono.just("v");
        assertSame(m, monoSenderMono(m));
        assertSame(m, ReactorSenders.toMono(ReactorSenders.fromPublisher(m)));
    }

    @Test
    void roundTripToFluxSubscribesTheOriginalMonoDirectly() {
        CancellationException ce = new CancellationException("upstream");
        // The adapter would have replaced it with its own CancellationException (stopped and back).
        StepVerifier.create(ReactorSenders.toFlux(ReactorSenders.fromMono(Mono.<String>error(ce))))
                .expectErrorMatches(e -> e == ce).verify();
        StepVerifier.create(ReactorSenders.toFlux(ReactorSenders.fromMono(Mono.just(1)))).expectNext(1).verifyComplete();
        StepVerifier.create(ReactorSenders.toFlux(ReactorSenders.fromMono(Mono.empty()))).verifyComplete();
    }

    @Test
    void roundTripDeliversTheUpstreamCancellationExceptionItself() {
        CancellationException ce = new CancellationException("upstream");
        StepVerifier.create(monoSenderMono(Mono.<String>error(ce))).expectErrorMatches(e -> e == ce).verify();
    }

    @Test
    void roundTripNoLongerCancelsTheMonoAfterItsValue() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.just("v"));
        StepVerifier.create(monoSenderMono(probe.mono())).expectNext("v").verifyComplete();
        probe.assertWasNotCancelled();
    }

    @Test
    void contextStillReachesTheInnerMono() {
        Mono<String> inner = Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("traceId")));
        StepVerifier.create(monoSenderMono(inner).contextWrite(Context.of("traceId", "t-1")))
                .expectNext("t-1").verifyComplete();
        StepVerifier.create(ReactorSenders.toMono(ReactorSenders.fromMono(inner).then(v -> v + "!"))
                        .contextWrite(Context.of("traceId", "t-2")))
                .expectNext("t-2!").verifyComplete();
    }

    @Test
    void cancelStillReachesTheInnerMonoThroughAComposedSender() {
        PublisherProbe<String> probe = PublisherProbe.of(Mono.never());
        StepVerifier.create(ReactorSenders.toMono(ReactorSenders.fromMono(probe.mono()).then(v -> v)))
                .expectSubscription()
                .then(probe::assertWasSubscribed)
                .thenCancel()
                .verify(Duration.ofSeconds(10)); // hang guard only
        probe.assertWasCancelled();
    }

    @Test
    void aFluxThroughTheSingleValueSenderIsNotUnwrapped() {
        Flux<Integer> flux = Flux.just(1, 2, 3);
        Mono<Integer> m = ReactorSenders.toMono(ReactorSenders.fromPublisher(flux));
        StepVerifier.create(m).expectNext(1).verifyComplete();
        StepVerifier.create(ReactorSenders.toFlux(ReactorSenders.fromPublisher(flux))).expectNext(1).verifyComplete();
    }

    @Test
    void senderRoundTripIsNotUnwrappedAStopCompletesAtOnce() {
        Sender<String> s = Senders.just("v");
        org.junit.jupiter.api.Assertions.assertNotSame(s, senderMonoSender(s));
    }
}
