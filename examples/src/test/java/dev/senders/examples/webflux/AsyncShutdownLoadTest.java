package dev.senders.examples.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeSpawner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The user story: an app's audit goes through an {@code @Async} method (300 ms of blocking work on
 * Spring Boot's task executor); a few thousand concurrent requests come in over a real loopback
 * connection and the app is shut down in the middle. Every accepted call's work either completes
 * or is stopped (interrupted while running, or cancelled while queued) and listed by name, and the
 * starter's shutdown report counts them all; nothing runs after the store is closed.
 *
 * <p>On Spring Boot's default executor (a pool of 8 threads: more work is queued than the grace
 * can drain, so the stop is exercised); with {@code -Dexamples.virtualThreads=true} (the JDK
 * 25 step, {@code scripts/async-shutdown-jdk25.sh}) on virtual threads
 * ({@code spring.threads.virtual.enabled=true}), where every task starts at once.
 */
@ExtendWith(OutputCaptureExtension.class)
class AsyncShutdownLoadTest {

    static final int REQUESTS = 3000;
    static final int CONCURRENCY = 200;
    static final int SHUTDOWN_AFTER = 1000;
    static final boolean VIRTUAL = ShutdownTestSupport.VIRTUAL_THREADS;

    record Answer(int status) {
        boolean accepted() {
            return status == 202;
        }
    }

    @Test
    @DisplayName("shutdown under load: every accepted @Async audit completes or is stopped and listed, and the report counts them")
    void shutdownUnderLoad(CapturedOutput output) throws Exception {
        List<String> args = new ArrayList<>(List.of("--server.address=127.0.0.1", "--server.port=0",
                "--spring.main.banner-mode=off", "--audit.write-delay=300ms",
                "--audit.db-url=jdbc:h2:mem:async-load;DB_CLOSE_DELAY=-1",
                "--senders.scope.shutdown.grace=2s", "--senders.scope.shutdown.stop-timeout=10s"));
        if (VIRTUAL) {
            args.add("--spring.threads.virtual.enabled=true");
        }
        ConfigurableApplicationContext context = new SpringApplicationBuilder(AuditApplication.class)
                .run(args.toArray(String[]::new));
        Object executor = context.getBean("applicationTaskExecutor");
        assertTrue(VIRTUAL ? executor instanceof SimpleAsyncTaskExecutor : executor instanceof ThreadPoolTaskExecutor,
                "the executor: " + executor.getClass());
        OrderHandler handler = context.getBean(OrderHandler.class);
        ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
        CountingScope scope = context.getBean(CountingScope.class);
        int port = ((org.springframework.boot.web.server.context.WebServerApplicationContext) context)
                .getWebServer().getPort();
        WebClient client = WebClient.create("http://127.0.0.1:" + port);

        CompletableFuture<Void> closed = new CompletableFuture<>();
        long t0 = System.nanoTime();
        List<Answer> answers = Flux.range(0, REQUESTS)
                .flatMap(i -> {
                    if (i == SHUTDOWN_AFTER) {                 // in the middle of the load
                        CompletableFuture.runAsync(context::close).whenComplete((v, e) -> {
                            if (e != null) {
                                closed.completeExceptionally(e);
                            } else {
                                closed.complete(null);
                            }
                        });
                    }
                    return client.post().uri("/orders/{id}/async", "o-" + i)
                            .exchangeToMono(r -> r.releaseBody().thenReturn(new Answer(r.statusCode().value())))
                            .onErrorResume(e -> Mono.just(new Answer(-1)));   // refused connection: not accepted
                }, CONCURRENCY)
                .collectList()
                .block(Duration.ofSeconds(60));                // hang guard only
        closed.get(60, TimeUnit.SECONDS);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        long clientAccepted = answers.stream().filter(Answer::accepted).count();
        Map<String, Long> s = handler.asyncStats();
        ScopeReport report = spawner.report();
        long accepted = s.get("accepted");
        long started = s.get("started");
        String summary = "client accepted " + clientAccepted + ", server " + s + ", report " + report + ", took " + took;

        assertTrue(clientAccepted >= SHUTDOWN_AFTER / 2, "most requests before the shutdown are accepted: " + summary);
        assertTrue(accepted >= clientAccepted, "every 202 the client saw was accepted by the server: " + summary);
        assertEquals(0L, s.get("failed"), "no write ran into the closed store: " + summary);
        assertEquals(0L, scope.count(), "nothing left associated: " + summary);
        // every accepted call's task is accounted for by the starter's report, as an executor task
        ScopeReport.Counts tasks = report.executorTasks();
        assertEquals(accepted, tasks.started(), "one task per accepted call: " + summary);
        assertEquals(0L, report.spawned().started(), "no spawner was used: " + summary);
        assertEquals(0L, tasks.failed(), summary);
        assertEquals(tasks.started(), tasks.completed() + tasks.stopped(), "each ended once: " + summary);
        // ran (written, or interrupted by the stop) or cancelled before it started (stopped)
        assertEquals(started, s.get("written") + s.get("interrupted"), summary);
        assertEquals(started, tasks.completed(), "a task that ran completed: " + summary);
        assertEquals(accepted - started, tasks.stopped(), "the others were cancelled unstarted: " + summary);
        assertTrue(output.getOut().contains("Shut down: scope 'audit'") || output.getOut().contains("scope 'audit'"),
                "the shutdown is logged: " + summary);
        if (tasks.stopped() > 0 || s.get("interrupted") > 0) {
            assertTrue(output.getOut().contains("AsyncAuditWriter#write"), "stopped work is listed by name: " + summary);
        }
        if (!VIRTUAL) {
            assertTrue(tasks.stopped() + s.get("interrupted") > 0,
                    "an 8-thread pool cannot drain the queue within the 2 s grace: the stop is exercised: " + summary);
        }
        System.out.println("AsyncShutdownLoadTest: " + summary);
    }
}
