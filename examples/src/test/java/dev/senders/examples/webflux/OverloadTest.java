package dev.senders.examples.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The user story: a traffic spike meets a service whose fire-and-forget audit writes are bounded
 * by {@code senders.scope.max-outstanding}. A real server on loopback, a real client (WebClient):
 * outstanding work never exceeds the limit, the excess is answered {@code 503} with
 * {@code Retry-After} at once (it does not wait for capacity), every accepted request's write
 * completes. (That refused work leaves nothing behind is asserted without a heap reading, by
 * {@code ScopeRetentionTest.spawn_refusedWorkIsCollectable}; retained bytes per operation are measured
 * by the benchmarks' {@code Footprint}.)
 */
class OverloadTest {

    /** One answer: status, body and the Retry-After header. */
    record Answer(int status, String body, String retryAfter) {
    }

    /** Samples the scope's count on a thread of its own and keeps the highest value seen. */
    static final class Sampler {
        final AtomicLong max = new AtomicLong();
        final AtomicLong samples = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Sampler(CountingScope scope) {
            thread = new Thread(() -> {
                while (running.get()) {
                    max.accumulateAndGet(scope.count(), Math::max);
                    samples.incrementAndGet();
                    LockSupport.parkNanos(200_000);
                }
            }, "outstanding-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        /** Stops sampling; idempotent. */
        void stop() throws InterruptedException {
            running.set(false);
            thread.join(5_000);
        }
    }

    static Mono<Answer> order(WebClient client, String id) {
        return client.post().uri("/orders/{id}", id)
                .exchangeToMono(r -> r.bodyToMono(String.class).defaultIfEmpty("")
                        .map(body -> new Answer(r.statusCode().value(), body,
                                r.headers().asHttpHeaders().getFirst("Retry-After"))));
    }

    static List<Answer> orders(WebClient client, String prefix, int n, int concurrency) {
        return Flux.range(0, n)
                .flatMap(i -> order(client, prefix + i), concurrency)
                .collectList()
                .block(Duration.ofSeconds(60));                  // hang guard only
    }

    @Test
    @DisplayName("max-outstanding=100, 3,000 requests at concurrency 50: at most 100 outstanding, some 503s, no accepted write lost")
    void boundedScope_underSustainedLoad() throws Exception {
        String db = "jdbc:h2:mem:overload-sustained;DB_CLOSE_DELAY=-1";
        ConfigurableApplicationContext context = new SpringApplicationBuilder(AuditApplication.class)
                .run("--server.address=127.0.0.1", "--server.port=0", "--spring.main.banner-mode=off",
                        "--senders.scope.max-outstanding=100", "--audit.write-delay=20ms", "--audit.threads=4",
                        "--audit.db-url=" + db, "--senders.scope.shutdown.grace=10s");
        try {
            CountingScope scope = context.getBean(CountingScope.class);
            AuditService service = context.getBean(AuditService.class);
            WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));
            assertEquals(100, scope.maxOutstanding());

            orders(client, "warm-", 100, 50);                   // warm up: 100 writes before the measured run
            Senders.syncWait(scope.whenIdle(), Duration.ofSeconds(30));

            List<Answer> answers;
            Sampler sampler = new Sampler(scope);
            try {
                answers = orders(client, "order-", 3_000, 50);
                Senders.syncWait(scope.whenIdle(), Duration.ofSeconds(30));   // every accepted write ends
            } finally {
                sampler.stop();
            }
            assertTrue(sampler.samples.get() > 10, "the sampler ran");
            assertTrue(sampler.max.get() <= 100, "outstanding work exceeded the limit: " + sampler.max.get());
            long accepted = answers.stream().filter(a -> a.status() == 202).count();
            List<Answer> refused = answers.stream().filter(a -> a.status() == 503).toList();
            assertEquals(3_000, accepted + refused.size(), "every request answered 202 or 503");
            assertTrue(refused.size() > 0, "the spike met the limit: some requests refused");
            assertTrue(refused.stream().allMatch(a -> OrderHandler.BUSY.equals(a.body()) && "1".equals(a.retryAfter())),
                    "a full scope answers BUSY with Retry-After: 1");
            assertEquals(100 + accepted, service.stats().get("written"), "no accepted write lost: " + service.stats());
            assertEquals(100 + accepted, ShutdownTestSupport.rows(db));
            assertEquals(refused.size(), scope.refusedCount(RefusalReason.FULL));
            assertEquals(0, scope.refusedCount(RefusalReason.CLOSED));
        } finally {
            context.close();
        }
    }

    @Test
    @DisplayName("a spike of ten times the limit: exactly the limit accepted, the excess answered 503 while the writes still run, then all accepted writes complete")
    void spikeOfTenTimesTheLimit_excessRefusedAtOnce() throws Exception {
        String db = "jdbc:h2:mem:overload-spike;DB_CLOSE_DELAY=-1";
        ConfigurableApplicationContext context = ShutdownTestSupport.start("senders.scope.max-outstanding=20",
                "audit.threads=4", "audit.db-url=" + db, "senders.scope.shutdown.grace=10s");
        try {
            GatedAuditStore store = context.getBean(GatedAuditStore.class);
            CountingScope scope = context.getBean(CountingScope.class);
            AuditService service = context.getBean(AuditService.class);
            WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));

            List<Answer> answers;
            Sampler sampler = new Sampler(scope);
            try {
                answers = orders(client, "spike-", 200, 200);
                assertEquals(1, store.gate.getCount(), "every answer came while the gate held the writes");
                assertEquals(0, service.stats().get("written"));
            } finally {
                sampler.stop();
            }
            assertEquals(20, sampler.max.get(), "outstanding work reached the limit and never passed it");
            List<Answer> accepted = new ArrayList<>();
            List<Answer> refused = new ArrayList<>();
            answers.forEach(a -> (a.status() == 202 ? accepted : refused).add(a));
            assertEquals(20, accepted.size());
            assertEquals(180, refused.size());
            assertTrue(refused.stream().allMatch(a -> a.status() == 503 && "1".equals(a.retryAfter())
                    && OrderHandler.BUSY.equals(a.body())), "the excess: 503, Retry-After: 1, BUSY");
            assertEquals(20, scope.count());

            store.gate.countDown();
            Senders.syncWait(scope.whenIdle(), Duration.ofSeconds(30));
            assertEquals(20, service.stats().get("written"), "every accepted write completed");
            assertEquals(20, ShutdownTestSupport.rows(db));
            assertEquals(202, order(client, "after").block(Duration.ofSeconds(10)).status(),
                    "capacity is back once the writes ended");
            assertTrue(store.firstWriteWaiting.await(0, TimeUnit.SECONDS));
        } finally {
            context.close();
        }
    }
}
