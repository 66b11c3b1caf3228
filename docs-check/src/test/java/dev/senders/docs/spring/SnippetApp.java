package dev.senders.docs.spring;

import dev.senders.spring.boot.ReactorScopeSpawner;
import java.time.Duration;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The application the docs' Spring test snippets test, as a reader's would be: {@code POST /orders/{id}}
 * answers {@code 202} and audits the order in the background through the starter's
 * {@link ReactorScopeSpawner} (into the {@link AuditStore} 50 ms later), {@code 503} when the scope
 * refuses.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class SnippetApp {

    @Bean
    AuditStore auditStore() {
        return new AuditStore();
    }

    @Bean
    RouterFunction<ServerResponse> orders(ReactorScopeSpawner spawner, AuditStore store) {
        return RouterFunctions.route().POST("/orders/{id}", request -> {
            String id = request.pathVariable("id");
            Mono<Long> audit = Mono.delay(Duration.ofMillis(50)).doOnNext(x -> store.add(id));
            return spawner.spawn(audit, "audit-" + id) ? ServerResponse.accepted().build()
                    : ServerResponse.status(503).build();
        }).build();
    }
}
