package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Scheduler;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import dev.senders.Sender;
import dev.senders.Senders;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.Disposable;
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

    // --- README: "Scopes: a WebFlux-style handler" ---
    static final class AuditingHandler {
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final CountingScope background = new CountingScope(failures::add);  // the application's scope
        final List<String> audited = new CopyOnWriteArrayList<>();

        Mono<String> handle(String user) {
            Mono<Void> audit = Mono.fromRunnable(() -> audited.add(user))
                    .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic()).then();
            ReactorScopes.spawn(audit, background.getToken());             // fire and forget, but joined
            return Mono.just("hello " + user);                             // answers at once
        }

        Mono<Void> shutdown(Duration grace) {
            background.close();                                            // refuse new work
            return ReactorSenders.toMono(background.join())                // wait for what runs...
                    .timeout(grace, Mono.defer(() -> {                     // ...at most `grace`, then
                        background.requestStop();                          // cancel the stragglers
                        return ReactorSenders.toMono(background.join());   // and wait until they ended
                    }));
        }
    }
    // --- end ---

    @Test
    void readme_scopes_handlerThenShutdown_nothingLost() {
        AuditingHandler handler = new AuditingHandler();
        // --- README: "Scopes: shutdown" ---
        String answer = handler.handle("alice").block();   // "hello alice"; the audit may still be running
        // ... many requests later ...
        handler.shutdown(Duration.ofSeconds(30)).block();   // every audit has ended when this returns
        // --- end ---
        assertEquals("hello alice", answer);
        assertEquals(List.of("alice"), handler.audited);

        AuditingHandler h2 = new AuditingHandler();
        for (int i = 0; i < 100; i++) {
            StepVerifier.create(h2.handle("user" + i)).expectNext("hello user" + i).verifyComplete();
        }
        h2.shutdown(Duration.ofSeconds(30)).block(Duration.ofSeconds(60));
        assertEquals(100, h2.audited.size(), "nothing lost: every accepted audit ran before shutdown completed");
        assertTrue(h2.failures.isEmpty());
        assertEquals(ScopeState.JOINED, h2.background.state());
        // after shutdown a request is still answered; its audit is refused and never runs
        StepVerifier.create(h2.handle("late")).expectNext("hello late").verifyComplete();
        assertEquals(100, h2.audited.size());
    }

    @Test
    void readme_scopes_stragglersAreCancelledAfterTheGracePeriod() {
        AuditingHandler handler = new AuditingHandler();
        AtomicInteger cancelled = new AtomicInteger();
        Disposable straggler = ReactorScopes.spawn(Mono.never().doOnCancel(cancelled::incrementAndGet),
                handler.background.getToken());
        handler.shutdown(Duration.ofMillis(50)).block(Duration.ofSeconds(30));
        assertEquals(1, cancelled.get());
        assertTrue(straggler.isDisposed());
        assertEquals(ScopeState.JOINED, handler.background.state());
    }
}
