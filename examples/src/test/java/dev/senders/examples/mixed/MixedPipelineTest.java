package dev.senders.examples.mixed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.reactivex.rxjava3.schedulers.Schedulers;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

class MixedPipelineTest {

    @Test
    @DisplayName("a value crosses Reactor -> sender -> RxJava -> sender -> Reactor; the Context key arrives innermost")
    void contextKeyArrivesInnermost_andTheValueComesBack() {
        AtomicReference<String> seenInnermost = new AtomicReference<>();
        Mono<String> pipeline = MixedPipeline.of(
                Mono.deferContextual(ctx -> {
                    seenInnermost.set(ctx.get("tenant"));
                    return Mono.just("order for " + ctx.get("tenant"));
                }),
                single -> single.map(String::toUpperCase).subscribeOn(Schedulers.io()));

        StepVerifier.create(pipeline.contextWrite(Context.of("tenant", "acme")))
                .expectNext("ORDER FOR ACME")
                .expectComplete()
                .verify(Duration.ofSeconds(10));                 // hang guard only
        assertEquals("acme", seenInnermost.get());
    }

    @Test
    @DisplayName("each subscription carries its own Context to the innermost Mono")
    void eachSubscriptionCarriesItsOwnContext() {
        Mono<String> pipeline = MixedPipeline.of(
                Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("tenant"))),
                single -> single.subscribeOn(Schedulers.computation()));
        StepVerifier.create(pipeline.contextWrite(Context.of("tenant", "a"))).expectNext("a").verifyComplete();
        StepVerifier.create(pipeline.contextWrite(Context.of("tenant", "b"))).expectNext("b").verifyComplete();
    }

    @Test
    @DisplayName("an innermost error surfaces outermost as the same exception")
    void innermostErrorSurfacesOutermost() {
        IllegalStateException boom = new IllegalStateException("boom");
        StepVerifier.create(MixedPipeline.of(Mono.<String>error(boom), single -> single.subscribeOn(Schedulers.io())))
                .expectErrorMatches(e -> e == boom)
                .verify(Duration.ofSeconds(10));
    }

    @RepeatedTest(20)
    @DisplayName("cancelling the outer subscription disposes the RxJava stage and cancels the innermost source")
    void outerCancel_reachesTheInnermostSource() throws InterruptedException {
        CountDownLatch subscribedInnermost = new CountDownLatch(1);
        CountDownLatch rxDisposed = new CountDownLatch(1);
        CountDownLatch cancelledInnermost = new CountDownLatch(1);
        AtomicReference<String> seenInnermost = new AtomicReference<>();
        Mono<String> pipeline = MixedPipeline.of(
                Mono.deferContextual(ctx -> {
                    seenInnermost.set(ctx.get("tenant"));
                    return Mono.<String>never()
                            .doOnSubscribe(s -> subscribedInnermost.countDown())
                            .doOnCancel(cancelledInnermost::countDown);
                }),
                single -> single.subscribeOn(Schedulers.io()).doOnDispose(rxDisposed::countDown));

        StepVerifier.create(pipeline.contextWrite(Context.of("tenant", "acme")))
                .expectSubscription()
                .then(() -> awaitOrFail(subscribedInnermost, "the innermost source was subscribed"))
                .thenCancel()
                .verify(Duration.ofSeconds(10));

        assertTrue(rxDisposed.await(10, TimeUnit.SECONDS), "the cancel crossed into RxJava (dispose)");
        assertTrue(cancelledInnermost.await(10, TimeUnit.SECONDS), "the cancel reached the innermost source");
        assertEquals("acme", seenInnermost.get(), "the Context key arrived innermost");
    }

    private static void awaitOrFail(CountDownLatch latch, String what) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), what);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
