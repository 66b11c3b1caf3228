package example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.spring.boot.FireAndForgetHooks;
import example.orders.OrdersApplication.Orders;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The fire-and-forget user stories on a real WebFlux server on loopback: a few thousand concurrent
 * {@code POST /orders} whose handler ends in a plain {@code mono.subscribe()}, and a shutdown that
 * begins while they are in flight. {@code track}: every accepted order's work is stored or stopped
 * and reported; {@code report}: the shutdown log counts the ones still running and names the
 * handler's subscribe site; {@code off}: nothing is looked for. Reactor Netty's and Spring's own
 * subscriptions are never found, and the refresher's {@code Flux.interval} does not hold the
 * shutdown past its grace.
 */
@ExtendWith(OutputCaptureExtension.class)
class OrdersFireAndForgetTest {

    private static final int ORDERS = 2000;
    private static final int CONCURRENCY = 50;

    /** A meter registry, so that the starter's meters are bound. */
    @Configuration(proxyBeanMethods = false)
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    private static ConfigurableApplicationContext start(String mode, String grace) {
        return new SpringApplicationBuilder(OrdersApplication.class, Meters.class).run("--server.address=127.0.0.1",
                "--server.port=0", "--spring.main.banner-mode=off", "--senders.scope.fire-and-forget=" + mode,
                "--senders.scope.shutdown.grace=" + grace, "--senders.scope.shutdown.stop-timeout=5s");
    }

    /**
     * Posts the orders, {@code CONCURRENCY} at a time; closes the context after {@code closeAfter}
     * were answered. Returns the orders accepted before the close began: their subscriptions were
     * made while the scope was open. An order accepted during the close (a request on a connection
     * the server still serves) may find the scope closed and run untracked, as documented.
     */
    private static Set<String> load(ConfigurableApplicationContext ctx, long ms, int closeAfter) throws Exception {
        int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        WebClient client = WebClient.create("http://127.0.0.1:" + port);
        Orders orders = ctx.getBean(Orders.class);
        Set<String> answered = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.CompletableFuture<Void> closed = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.atomic.AtomicReference<Set<String>> beforeClose = new java.util.concurrent.atomic.AtomicReference<>();
        // one close, on one thread: Spring's close() on a second thread returns without waiting
        // when the first is closing, and the test would go on before the context is destroyed
        java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
        Flux.range(0, ORDERS)
                .flatMap(i -> client.post().uri("/orders/o" + i + "?ms=" + ms).retrieve().toBodilessEntity()
                        .doOnNext(r -> {
                            answered.add("o" + i);
                            if (answered.size() >= closeAfter && closing.compareAndSet(false, true)) {
                                new Thread(() -> {
                                    beforeClose.set(new HashSet<>(orders.accepted));
                                    ctx.close();
                                    closed.complete(null);
                                }, "close-mid-load").start();
                            }
                        })
                        .onErrorResume(e -> Mono.empty()), CONCURRENCY)
                .then().block(Duration.ofSeconds(60));
        if (closing.compareAndSet(false, true)) {
            beforeClose.set(new HashSet<>(orders.accepted));
            ctx.close();
            closed.complete(null);
        }
        closed.get(60, TimeUnit.SECONDS);
        return beforeClose.get();
    }

    @Test
    void track_everyAcceptedOrdersWorkIsStoredOrStoppedAndNothingIsLeftRunning(CapturedOutput out) throws Exception {
        ConfigurableApplicationContext ctx = start("track", "300ms");
        FireAndForgetTracker tracker = ctx.getBean(FireAndForgetHooks.class).trackers().get(0);
        Orders orders = ctx.getBean(Orders.class);
        CountingScope scope = tracker.scope();
        Set<String> accepted = load(ctx, 200, ORDERS / 2);

        for (String id : accepted) {
            assertThat(orders.stored.contains(id) || orders.cancelled.contains(id))
                    .as("order %s was accepted: its work was stored or stopped", id).isTrue();
        }
        assertThat(tracker.activeCount()).isZero();
        assertThat(scope.count()).isZero();
        assertThat(tracker.foundCount()).isGreaterThanOrEqualTo(accepted.size());
        assertThat(out.getOut()).contains("fire-and-forget subscriptions are tracked");
        assertThat(out.getOut()).contains("fire-and-forget subscriptions (Reactor, TRACK, scope");
        // the refresher outlasted the grace: the scope stopped it and named where it was subscribed
        assertThat(out.getOut()).contains("ended after the scope's stop request")
                .contains("example.orders.OrdersApplication");
    }

    @Test
    void report_theShutdownLogCountsWhatStillRanAndNamesTheHandlersSite(CapturedOutput out) throws Exception {
        ConfigurableApplicationContext ctx = start("report", "100ms");
        FireAndForgetTracker tracker = ctx.getBean(FireAndForgetHooks.class).trackers().get(0);
        load(ctx, 20_000, ORDERS / 2);

        assertThat(tracker.mode()).isEqualTo(FireAndForgetMode.REPORT);
        assertThat(tracker.activeCount()).as("orders' work still running at exit, plus the refresher").isGreaterThan(1);
        assertThat(out.getOut()).contains("still running:")
                .contains("example.orders.OrdersApplication (Mono.subscribe")
                .contains("example.orders.OrdersApplication (Flux.subscribe");
        assertThat(tracker.scope().count()).as("report does not associate").isZero();
        tracker.close();
    }

    @Test
    void off_nothingIsLookedFor(CapturedOutput out) throws Exception {
        ConfigurableApplicationContext ctx = start("off", "100ms");
        assertThat(ctx.getBean(FireAndForgetHooks.class).trackers()).isEmpty();
        assertThat(FireAndForgetTracker.installed()).isEmpty();
        load(ctx, 0, ORDERS);
        assertThat(out.getOut()).contains("fire-and-forget subscriptions are not looked for");
    }

    @Test
    void frameworkSubscriptionsAreNeverFound_andTheMetersCountTheApplications() throws Exception {
        ConfigurableApplicationContext ctx = start("track", "5s");
        try {
            FireAndForgetTracker tracker = ctx.getBean(FireAndForgetHooks.class).trackers().get(0);
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
            WebClient client = WebClient.create("http://127.0.0.1:" + port);
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                statuses.add(client.post().uri("/orders/f" + i).retrieve().toBodilessEntity()
                        .block(Duration.ofSeconds(10)).getStatusCode().value());
            }
            assertThat(statuses).containsOnly(202);
            // the refresher and the 20 orders: Reactor Netty's and Spring's subscriptions for the
            // requests and the client are not among them
            assertThat(tracker.foundCount()).isEqualTo(21);
            assertThat(registry.get("senders.fire_and_forget.found").tag("adapter", "Reactor").functionCounter().count())
                    .isEqualTo(21.0);
            assertThat(registry.get("senders.fire_and_forget.active").tag("adapter", "Reactor").gauge().value())
                    .isGreaterThanOrEqualTo(1.0);
        } finally {
            ctx.close();
        }
    }
}
