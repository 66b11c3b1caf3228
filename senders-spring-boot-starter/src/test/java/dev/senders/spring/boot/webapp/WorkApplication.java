package dev.senders.spring.boot.webapp;

import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * A WebFlux app with no scope wiring of its own: every route answers at once and leaves work
 * running in the starter's application scope. The work records into {@link ResultStore}, a bean
 * destroyed with the context.
 *
 * <ul>
 * <li>{@code POST /slow/{id}?ms=}: work that takes {@code ms} and records the MDC traceId it sees;
 * <li>{@code POST /late/{id}?ms=}: the request itself takes {@code ms} before it spawns (in flight
 *     during graceful shutdown);
 * <li>{@code POST /hang/{id}}: work named {@code hang-{id}} that never ends unless stopped (records
 *     "stopped" on cancel);
 * <li>{@code POST /stubborn/{id}}: sender work named {@code stubborn-{id}} that ignores stop
 *     requests and ends only when {@link #STUBBORN} is completed;
 * <li>{@code POST /fail/{id}}: work named {@code audit-{id}} that fails after the response;
 * <li>{@code POST /mdc/{id}}: the handler puts {@code orderId} into the MDC and spawns work named
 *     {@code store-{id}} that records the {@code orderId} it sees when it starts and after a thread
 *     hop ({@code atStart|afterHop}), then fails;
 * <li>{@code POST /call/{id}?ms=&url=}: work that waits {@code ms}, then calls {@code url} with a
 *     WebClient on the application's Reactor Netty resources, and records the answer.
 * </ul>
 * A web filter puts the {@code X-Trace-Id} header into the request's Reactor {@code Context}
 * under {@code traceId}, as a tracing library would.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class WorkApplication {

    /** Completes the stubborn work. */
    public static final CompletableFuture<Void> STUBBORN = new CompletableFuture<>();

    private static final java.util.Map<String, CompletableFuture<Void>> LATE_ARRIVED =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Completed when {@code POST /late/{id}} reached its handler (the server accepted it).
     *
     * @param id the request's id
     * @return the arrival of that request
     */
    public static CompletableFuture<Void> lateArrived(String id) {
        return LATE_ARRIVED.computeIfAbsent(id, k -> new CompletableFuture<>());
    }

    @Bean(destroyMethod = "close")
    ResultStore resultStore() {
        return new ResultStore();
    }

    @Bean
    WebFilter traceIdFilter() {
        return (exchange, chain) -> {
            String traceId = exchange.getRequest().getHeaders().getFirst("X-Trace-Id");
            return traceId == null ? chain.filter(exchange)
                    : chain.filter(exchange).contextWrite(Context.of(MdcTraceIdAccessor.KEY, traceId));
        };
    }

    @Bean
    RouterFunction<ServerResponse> routes(ReactorScopeSpawner reactor, ScopeSpawner senders, ResultStore store,
            ReactorResourceFactory resources) {
        WebClient client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(resources, Function.identity())).build();
        return RouterFunctions.route()
                .POST("/slow/{id}", request -> {
                    String id = request.pathVariable("id");
                    String seenAtSpawn = String.valueOf(MDC.get(MdcTraceIdAccessor.KEY));
                    return answer(reactor, Mono.delay(millis(request))
                            .doOnNext(x -> store.put(id, seenAtSpawn + "|" + MDC.get(MdcTraceIdAccessor.KEY)
                                    + "|" + Thread.currentThread().getName())));
                })
                .POST("/late/{id}", request -> {
                    lateArrived(request.pathVariable("id")).complete(null);
                    return Mono.delay(millis(request)).flatMap(x -> answer(reactor,
                            Mono.fromRunnable(() -> store.put(request.pathVariable("id"), "late"))));
                })
                .POST("/hang/{id}", request -> answer(reactor,
                        Mono.never().doOnCancel(() -> store.put(request.pathVariable("id"), "stopped")),
                        "hang-" + request.pathVariable("id")))
                .POST("/stubborn/{id}", request -> {
                    Sender<Void> ignoresStop = receiver -> () -> STUBBORN.whenComplete((v, e) -> complete(receiver));
                    return senders.spawn(ignoresStop, "stubborn-" + request.pathVariable("id")) ? accepted()
                            : refused();
                })
                .POST("/fail/{id}", request -> {
                    String id = request.pathVariable("id");
                    return answer(reactor, Mono.delay(Duration.ofMillis(50))
                            .then(Mono.error(new IllegalStateException("audit write of order " + id + " failed"))),
                            "audit-" + id);
                })
                .POST("/mdc/{id}", request -> {
                    String id = request.pathVariable("id");
                    MDC.put("orderId", id);                  // what a handler does for its log lines
                    try {
                        return answer(reactor, Mono.fromCallable(() -> String.valueOf(MDC.get("orderId")))
                                .delayElement(Duration.ofMillis(20))
                                .doOnNext(atStart -> store.put(id, atStart + "|" + MDC.get("orderId")))
                                .then(Mono.error(new IllegalStateException("order " + id + " not stored"))),
                                "store-" + id);
                    } finally {
                        MDC.remove("orderId");
                    }
                })
                .POST("/call/{id}", request -> {
                    String id = request.pathVariable("id");
                    String url = request.queryParam("url").orElseThrow();
                    return answer(reactor, Mono.delay(millis(request))
                            .then(client.get().uri(url).retrieve().bodyToMono(String.class))
                            .doOnNext(body -> store.put(id, body)));
                })
                .build();
    }

    private static void complete(Receiver<? super Void> receiver) {
        receiver.setValue(null);
    }

    private static Duration millis(ServerRequest request) {
        return Duration.ofMillis(Long.parseLong(request.queryParam("ms").orElse("0")));
    }

    private static Mono<ServerResponse> answer(ReactorScopeSpawner spawner, Mono<?> work) {
        return spawner.spawn(work) ? accepted() : refused();
    }

    private static Mono<ServerResponse> answer(ReactorScopeSpawner spawner, Mono<?> work, String name) {
        return spawner.spawn(work, name) ? accepted() : refused();
    }

    private static Mono<ServerResponse> accepted() {
        return ServerResponse.accepted().bodyValue("accepted");
    }

    private static Mono<ServerResponse> refused() {
        return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE).bodyValue("shutting down");
    }
}
