package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.Senders;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/** The examples of reactor-adapter/README.md, verbatim, so that they keep compiling and working. */
class ReadmeExamplesTest {

    @Test
    void readme_monoToSenderAndBack() {
        // --- README: "Mono to sender and back" ---
        Sender<String> greeting = ReactorSenders.fromMono(Mono.just("hello"));
        String g = Senders.syncWait(greeting);                                  // "hello"

        Sender<String> nothing = ReactorSenders.fromMono(Mono.empty());
        String n = Senders.syncWait(nothing);                                   // null, as Mono.block()
        Optional<String> o = Senders.syncWait(ReactorSenders.fromMonoOptional(Mono.<String>empty())); // Optional.empty()

        Mono<Integer> answer = ReactorSenders.toMono(Senders.just(42));
        Flux<Integer> oneOrNone = ReactorSenders.toFlux(Senders.just(42));
        // --- end ---
        assertEquals("hello", g);
        assertNull(n);
        assertEquals(Optional.empty(), o);
        StepVerifier.create(answer).expectNext(42).verifyComplete();
        StepVerifier.create(oneOrNone).expectNext(42).verifyComplete();
    }

    @Test
    void readme_publisherVariants() {
        // --- README: "Publisher variants" ---
        Integer first = Senders.syncWait(ReactorSenders.fromPublisher(Flux.range(1, 10)));           // 1, then cancel
        Integer only = Senders.syncWait(ReactorSenders.fromPublisherSingle(Flux.just(7)));          // 7
        Integer last = Senders.syncWait(ReactorSenders.fromPublisherLast(Flux.range(1, 10)));       // 10
        List<Integer> all = Senders.syncWait(ReactorSenders.fromPublisherAll(Flux.range(1, 3)));    // [1, 2, 3]
        Void done = Senders.syncWait(ReactorSenders.fromPublisherIgnoreElements(Flux.range(1, 3))); // null
        // --- end ---
        assertEquals(1, first);
        assertEquals(7, only);
        assertEquals(10, last);
        assertEquals(List.of(1, 2, 3), all);
        assertNull(done);
    }

    @Test
    void readme_context() {
        // --- README: "Context" ---
        Mono<String> user = ReactorSenders.toMono(Senders.read(ReactorSenders.CONTEXT))
                .map(ctx -> ctx.getOrDefault("user", "anonymous"))
                .contextWrite(Context.of("user", "alice"));                     // emits "alice"

        Mono<String> inner = Mono.deferContextual(ctx -> Mono.just(ctx.<String>get("traceId")));
        Mono<String> sandwich = ReactorSenders.toMono(ReactorSenders.fromMono(inner))
                .contextWrite(Context.of("traceId", "abc"));                    // emits "abc"
        // --- end ---
        StepVerifier.create(user).expectNext("alice").verifyComplete();
        StepVerifier.create(sandwich).expectNext("abc").verifyComplete();
        ContextView unused = Context.empty();
        assertEquals(0, unused.size());
    }

    @Test
    void readme_schedulers() {
        // --- README: "Schedulers" ---
        reactor.core.scheduler.Scheduler boundedElastic = reactor.core.scheduler.Schedulers.boundedElastic();
        Scheduler onElastic = ReactorSchedulers.from(boundedElastic);
        Senders.syncWait(onElastic.schedule());                                // completes on a boundedElastic thread

        ExecutorService pool = Executors.newFixedThreadPool(4);
        reactor.core.scheduler.Scheduler onPool = ReactorSchedulers.toReactor(dev.senders.Schedulers.fromExecutor(pool));
        Flux<Integer> flux = Flux.range(1, 100).publishOn(onPool);             // a worker: serial, in order
        // --- end ---
        try {
            StepVerifier.create(flux).expectNextCount(100).expectComplete().verify(java.time.Duration.ofSeconds(30));
        } finally {
            onPool.dispose();
            pool.shutdownNow();
        }
    }
}
