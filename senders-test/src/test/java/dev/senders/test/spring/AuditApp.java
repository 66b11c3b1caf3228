package dev.senders.test.spring;

import dev.senders.spring.boot.ReactorScopeSpawner;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * A WebFlux app that answers {@code 202} and audits in the background through the starter's
 * {@link ReactorScopeSpawner}: {@code POST /orders/{id}?ms=} records {@code id} in the
 * {@link #audits} bean after {@code ms} (work {@code audit-{id}}); {@code POST /broken/{id}}
 * spawns work {@code audit-{id}} that fails after 50 ms. {@code 503} when the scope refuses.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class AuditApp {

    @Bean
    Queue<String> audits() {
        return new ConcurrentLinkedQueue<>();
    }

    @Bean
    RouterFunction<ServerResponse> routes(ReactorScopeSpawner spawner, Queue<String> audits) {
        return RouterFunctions.route()
                .POST("/orders/{id}", request -> {
                    String id = request.pathVariable("id");
                    long ms = Long.parseLong(request.queryParam("ms").orElse("50"));
                    Mono<Long> audit = Mono.delay(Duration.ofMillis(ms)).doOnNext(x -> audits.add(id));
                    return answer(spawner.spawn(audit, "audit-" + id));
                })
                .POST("/broken/{id}", request -> {
                    Mono<Long> audit = Mono.delay(Duration.ofMillis(50))
                            .then(Mono.error(new IllegalStateException("audit store down")));
                    return answer(spawner.spawn(audit, "audit-" + request.pathVariable("id")));
                })
                .build();
    }

    private static Mono<ServerResponse> answer(boolean spawned) {
        return spawned ? ServerResponse.accepted().build() : ServerResponse.status(503).build();
    }
}
