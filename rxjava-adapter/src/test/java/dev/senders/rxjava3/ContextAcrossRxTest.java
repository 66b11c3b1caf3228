package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * A Reactor {@code Context} written downstream reaches the upstream Reactor source across an RxJava
 * leg the library builds at both ends ({@code toMono(fromFlowable(toFlowable(fromMono(mono))))});
 * across a foreign RxJava operator it cannot (RxJava has no context), and the source sees none.
 */
class ContextAcrossRxTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    /** A Mono that reports the context its subscriber gave it. */
    private static final Mono<String> SEES_K = Mono.deferContextual(ctx -> Mono.just(ctx.getOrDefault("k", "no context")));

    private static String run(Sender<String> throughRx) {
        return ReactorSenders.toMono(throughRx).contextWrite(Context.of("k", "written downstream")).block(HANG_GUARD);
    }

    @Test
    @DisplayName("fromFlowable(toFlowable(s)): the library's own Flowable is connected through, with the receiver's env, so the Context arrives")
    void contextCrossesTheLibrarysOwnFlowable() {
        Flowable<String> leg = RxSenders.toFlowable(ReactorSenders.fromMono(SEES_K));
        assertEquals("written downstream", run(RxSenders.fromFlowable(leg)));
        assertEquals("written downstream", run(RxSenders.fromPublisher(leg)));
        assertEquals("written downstream", run(RxSenders.fromFlowableSingle(leg)));
        assertEquals("written downstream", run(RxSenders.fromFlowableLast(leg)));
    }

    @Test
    @DisplayName("fromMaybe(toMaybe(s)): the same for the library's own Maybe")
    void contextCrossesTheLibrarysOwnMaybe() {
        assertEquals("written downstream", run(RxSenders.fromMaybe(RxSenders.toMaybe(ReactorSenders.fromMono(SEES_K)))));
    }

    @Test
    @DisplayName("a foreign RxJava operator in between: the RxJava leg carries no context, the source sees none")
    void aForeignOperatorDropsTheContext() {
        Flowable<String> mapped = RxSenders.toFlowable(ReactorSenders.fromMono(SEES_K)).map(s -> s);
        assertEquals("no context", run(RxSenders.fromFlowable(mapped)));
    }
}
