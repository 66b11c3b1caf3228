package dev.senders.examples.webflux;

import static dev.senders.examples.webflux.ShutdownTestSupport.placeOrders;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.examples.webflux.ShutdownTestSupport.Answer;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.spring.boot.FireAndForgetHooks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The fire-and-forget user stories on the example app's real server on loopback, with the
 * starter's {@code senders.scope.fire-and-forget} and no code change: the app's
 * {@code audit.mode=subscribe} path ends each {@code POST /orders/{id}} in a plain
 * {@code Flux.from(write).subscribe()} ({@link SubscribeAuditor}); 2,000 orders come in, 50 at a
 * time, and the context is closed in the middle of the load.
 * <ul>
 *   <li>{@code track}: every accepted order's audit write is written or stopped, nothing is left
 *       running, and exactly the handler's subscriptions were found;</li>
 *   <li>{@code report}: the shutdown log counts the writes still running and names the subscribe
 *       site;</li>
 *   <li>{@code off}: nothing is installed;</li>
 *   <li>{@code track} on the app's scoped path (no fire-and-forget of its own): none of Reactor
 *       Netty's or Spring's subscriptions is found, under load and through the shutdown.</li>
 * </ul>
 * With {@code -Dexamples.virtualThreads=true} (the JDK 25 step, {@code scripts/task-tests-jdk25.sh})
 * the app runs with {@code spring.threads.virtual.enabled=true}.
 */
@ExtendWith(OutputCaptureExtension.class)
class FireAndForgetLoadTest {

    static final int ORDERS = 2000;
    static final int CONCURRENCY = 50;
    static final int CLOSE_AFTER = ORDERS / 2;

    private static ConfigurableApplicationContext start(String... properties) {
        List<String> args = new ArrayList<>(List.of("--server.address=127.0.0.1", "--server.port=0",
                "--spring.main.banner-mode=off", "--senders.scope.shutdown.stop-timeout=10s"));
        for (String p : properties) {
            args.add("--" + p);
        }
        if (ShutdownTestSupport.VIRTUAL_THREADS) {
            args.add("--spring.threads.virtual.enabled=true");
        }
        return new SpringApplicationBuilder(AuditApplication.class).run(args.toArray(String[]::new));
    }

    private static FireAndForgetTracker reactorTracker(ConfigurableApplicationContext context) {
        return context.getBean(FireAndForgetHooks.class).trackers().stream()
                .filter(t -> t.adapter().equals("Reactor")).findFirst()
                .orElseThrow(() -> new AssertionError("no Reactor tracker installed"));
    }

    /**
     * Sends {@link #ORDERS} requests to {@code uri} ({@code {id}} replaced), {@link #CONCURRENCY}
     * at a time, and closes the context on another thread once {@link #CLOSE_AFTER} were answered;
     * returns once every request was answered (or refused) and the close has returned.
     */
    private static List<Integer> loadAndCloseMidway(ConfigurableApplicationContext context, String method, String uri)
            throws Exception {
        WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));
        CompletableFuture<Void> closed = new CompletableFuture<>();
        AtomicInteger answered = new AtomicInteger();
        List<Integer> statuses = Flux.range(0, ORDERS)
                .flatMap(i -> client.method(HttpMethod.valueOf(method))
                        .uri(uri.replace("{id}", "o-" + i))
                        .exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value()))
                        .doOnNext(s -> {
                            if (answered.incrementAndGet() == CLOSE_AFTER) {
                                CompletableFuture.runAsync(context::close).whenComplete((v, e) -> {
                                    if (e != null) {
                                        closed.completeExceptionally(e);
                                    } else {
                                        closed.complete(null);
                                    }
                                });
                            }
                        })
                        .onErrorResume(e -> Mono.just(-1)), CONCURRENCY)   // refused connection
                .collectList()
                .block(Duration.ofSeconds(60));                             // hang guard only
        closed.get(60, TimeUnit.SECONDS);                                   // hang guard only
        return statuses;
    }

    @Test
    @DisplayName("track: every accepted order's plain-subscribe() audit write is written or stopped, none left running")
    void track_everyAcceptedOrdersWriteIsWrittenOrStopped_andOnlyTheHandlersSubscriptionsAreFound(CapturedOutput out)
            throws Exception {
        ConfigurableApplicationContext context = start("audit.mode=subscribe", "senders.scope.fire-and-forget=track",
                "audit.write-delay=200ms", "audit.db-url=jdbc:h2:mem:ff-track;DB_CLOSE_DELAY=-1",
                "senders.scope.shutdown.grace=300ms");
        FireAndForgetTracker tracker = reactorTracker(context);
        AuditService audit = context.getBean(AuditService.class);
        Object executor = context.getBean("applicationTaskExecutor");
        assertEquals(ShutdownTestSupport.VIRTUAL_THREADS, executor instanceof SimpleAsyncTaskExecutor,
                "Spring's executor is on virtual threads exactly when asked: " + executor.getClass());
        List<Integer> statuses = loadAndCloseMidway(context, "POST", "/orders/{id}");

        Map<String, Long> s = audit.stats();
        long clientAccepted = statuses.stream().filter(st -> st == 202).count();
        String summary = "client accepted " + clientAccepted + ", server " + s + ", " + tracker.report();
        assertEquals(FireAndForgetMode.TRACK, tracker.mode());
        assertTrue(clientAccepted >= CLOSE_AFTER, "the orders before the shutdown are accepted: " + summary);
        assertTrue(s.get("accepted") >= clientAccepted, "every 202 was accepted by the server: " + summary);
        // a request the web server still handles after the scope closed (on a connection the
        // client kept open) has its write run untracked: counted and listed below, not joined, so
        // the writer pool's disposal may cut it off; every tracked write was written or stopped
        assertTrue(s.get("written") + s.get("stopped") >= s.get("accepted") - tracker.untrackedCount(),
                "each accepted order's tracked write was written or stopped, none lost: " + summary);
        assertTrue(tracker.running().stream().allMatch(w -> w.kind().endsWith(", untracked")),
                "no tracked write left running: " + summary);
        assertEquals(0L, tracker.scope().count(), "nothing left associated: " + summary);
        if (tracker.untrackedCount() > 0) {
            assertTrue(Pattern.compile("[1-9][0-9]* untracked \\(scope closed\\)").matcher(out.getOut()).find(),
                    "the shutdown log counts the untracked ones: " + summary);
        }
        assertEquals(s.get("accepted"), tracker.foundCount(),
                "one found subscription per accepted order: Reactor Netty's and Spring's are not found: " + summary);
        assertTrue(out.getOut().contains("fire-and-forget subscriptions are tracked"), "the startup line");
        // 8 writers at 200 ms a write cannot drain a thousand writes within the 300 ms grace
        assertTrue(s.get("stopped") > 0 && tracker.endedAfterStopCount() > 0, "the stop is exercised: " + summary);
        assertTrue(out.getOut().contains("ended after the scope's stop request")
                && out.getOut().contains("dev.senders.examples.webflux.SubscribeAuditor"),
                "the writes stopped past the grace are listed by site: " + summary);
        System.out.println("FireAndForgetLoadTest track: " + summary);
    }

    @Test
    @DisplayName("report: the shutdown log counts the writes still running and names the handler's subscribe site")
    void report_theShutdownLogCountsTheWritesStillRunningAndNamesTheSubscribeSite(CapturedOutput out) throws Exception {
        ConfigurableApplicationContext context = ShutdownTestSupport.start("audit.mode=subscribe",
                "senders.scope.fire-and-forget=report", "audit.db-url=jdbc:h2:mem:ff-report;DB_CLOSE_DELAY=-1",
                "senders.scope.shutdown.grace=100ms",
                "spring.threads.virtual.enabled=" + ShutdownTestSupport.VIRTUAL_THREADS);
        GatedAuditStore store = context.getBean(GatedAuditStore.class);
        FireAndForgetTracker tracker = reactorTracker(context);
        try {
            WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));
            List<Answer> answers = placeOrders(client, "r-", 200);
            assertEquals(200, answers.stream().filter(Answer::accepted).count(), "every order accepted");
            assertTrue(store.firstWriteWaiting.await(10, TimeUnit.SECONDS), "the writes are running");

            CompletableFuture.runAsync(context::close).get(30, TimeUnit.SECONDS);   // hang guard only

            assertEquals(FireAndForgetMode.REPORT, tracker.mode());
            assertEquals(200L, tracker.foundCount(), "one per order: " + tracker.report());
            assertTrue(tracker.activeCount() > 0, "held at the gate, still running at exit: " + tracker.report());
            assertEquals(0L, tracker.scope().count(), "report does not associate");
            assertTrue(out.getOut().contains("still running:")
                    && out.getOut().contains("dev.senders.examples.webflux.SubscribeAuditor")
                    && out.getOut().contains("(Flux.subscribe"),
                    "the shutdown log names the subscribe site: " + tracker.report());
        } finally {
            store.gate.countDown();
            tracker.close();
        }
    }

    @Test
    @DisplayName("off: nothing is looked for")
    void off_nothingIsInstalled(CapturedOutput out) throws Exception {
        ConfigurableApplicationContext context = start("audit.mode=subscribe", "senders.scope.fire-and-forget=off",
                "audit.db-url=jdbc:h2:mem:ff-off;DB_CLOSE_DELAY=-1", "audit.write-delay=0ms");
        try {
            assertTrue(context.getBean(FireAndForgetHooks.class).trackers().isEmpty(), "no tracker");
            assertTrue(FireAndForgetTracker.installed().isEmpty(), "no hook installed");
            WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));
            assertEquals(50, placeOrders(client, "f-", 50).stream().filter(Answer::accepted).count());
            assertTrue(out.getOut().contains("fire-and-forget subscriptions are not looked for"), "the startup line");
        } finally {
            context.close();
        }
    }

    @Test
    @DisplayName("track, no fire-and-forget of the app's own: none of Reactor Netty's or Spring's subscriptions is found")
    void track_withNoFireAndForgetOfTheAppsOwn_noFrameworkSubscriptionIsFound() throws Exception {
        ConfigurableApplicationContext context = start("audit.mode=scope", "senders.scope.fire-and-forget=track",
                "audit.write-delay=0ms", "audit.db-url=jdbc:h2:mem:ff-none;DB_CLOSE_DELAY=-1",
                "senders.scope.shutdown.grace=5s");
        FireAndForgetTracker tracker = reactorTracker(context);
        WebClient client = ShutdownTestSupport.client(ShutdownTestSupport.port(context));
        // the scoped order path (spawned through the starter's spawner) and a read, under load
        assertEquals(100, placeOrders(client, "s-", 100).stream().filter(Answer::accepted).count());
        List<Integer> statuses = loadAndCloseMidway(context, "GET", "/audit/stats?n={id}");

        assertTrue(statuses.stream().filter(st -> st == 200).count() >= CLOSE_AFTER, "the reads before the shutdown");
        assertEquals(0L, tracker.foundCount(), "no subscription of Reactor Netty or Spring is found: " + tracker.report());
        assertEquals(0L, tracker.untrackedCount(), tracker.report());
        assertEquals(0, tracker.activeCount(), tracker.report());
    }
}
