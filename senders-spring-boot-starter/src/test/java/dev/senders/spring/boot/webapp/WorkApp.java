package dev.senders.spring.boot.webapp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * A running {@link WorkApplication}: real Netty on a random loopback port. Not
 * {@code @SpringBootTest}: the tests close the context themselves (that is what they test), and
 * the TestContext framework fails its after-test callbacks on a context the test closed.
 */
public final class WorkApp implements AutoCloseable {

    /** One answer: status and body. */
    public record Answer(int status, String body) {
    }

    public final ConfigurableApplicationContext context;
    public final WebClient client;

    private WorkApp(ConfigurableApplicationContext context) {
        this.context = context;
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.client = WebClient.create("http://127.0.0.1:" + port);
    }

    /** Starts the app with {@code properties} ({@code key=value}) on top of loopback and a random port. */
    public static WorkApp start(String... properties) {
        List<String> args = new ArrayList<>(List.of("--server.address=127.0.0.1", "--server.port=0",
                "--spring.main.banner-mode=off", "--logging.pattern.console=%level %logger{0} [%X{traceId}%X{orderId}] %msg%n"));
        for (String p : properties) {
            args.add("--" + p);
        }
        return new WorkApp(new SpringApplicationBuilder(WorkApplication.class).run(args.toArray(String[]::new)));
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** {@code POST path} with an optional trace id header, answered within 10 s. */
    public Answer post(String path, String traceId) {
        return postAsync(path, traceId).block(Duration.ofSeconds(10));
    }

    public Mono<Answer> postAsync(String path, String traceId) {
        return client.post().uri(path)
                .headers(h -> {
                    if (traceId != null) {
                        h.add("X-Trace-Id", traceId);
                    }
                })
                .exchangeToMono(r -> r.bodyToMono(String.class).defaultIfEmpty("")
                        .map(body -> new Answer(r.statusCode().value(), body)));
    }

    /** {@code GET path} as a string, answered within 10 s. */
    public String get(String path) {
        return client.get().uri(path).retrieve().bodyToMono(String.class).block(Duration.ofSeconds(10));
    }

    /** Closes the context on another thread; the future completes when {@code close()} returned. */
    public CompletableFuture<Long> closeAsync() {
        return CompletableFuture.supplyAsync(() -> {
            long t0 = System.nanoTime();
            context.close();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        }, task -> new Thread(task, "test-context-close").start());
    }

    @Override
    public void close() {
        context.close();
    }
}
