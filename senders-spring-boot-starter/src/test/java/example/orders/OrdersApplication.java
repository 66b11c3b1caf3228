package example.orders;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An application as WebFlux teams write it, with no senders code: {@code POST /orders/{id}?ms=}
 * accepts the order and stores it {@code ms} later from a plain {@code mono.subscribe()} (the
 * fire-and-forget the starter looks for); a cache refresher runs a {@code Flux.interval(...)}
 * subscribed at startup. In a package of its own, outside the library's.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class OrdersApplication {

    /** What the orders' fire-and-forget work did. */
    public static final class Orders {
        public final Set<String> accepted = ConcurrentHashMap.newKeySet();
        public final Set<String> stored = ConcurrentHashMap.newKeySet();
        public final Set<String> cancelled = ConcurrentHashMap.newKeySet();
        public final AtomicLong refreshes = new AtomicLong();
    }

    @Bean
    Orders orders() {
        return new Orders();
    }

    /** The refresher: subscribed once, never ends on its own. */
    @Bean
    Disposable refresher(Orders orders) {
        return Flux.interval(Duration.ofMillis(20)).subscribe(i -> orders.refreshes.incrementAndGet());
    }

    @Bean
    RouterFunction<ServerResponse> routes(Orders orders) {
        return RouterFunctions.route()
                .POST("/orders/{id}", req -> {
                    String id = req.pathVariable("id");
                    long ms = Long.parseLong(req.queryParam("ms").orElse("0"));
                    orders.accepted.add(id);
                    Mono.delay(Duration.ofMillis(ms))
                            .doOnCancel(() -> orders.cancelled.add(id))
                            .subscribe(x -> orders.stored.add(id)); // the fire-and-forget
                    return ServerResponse.accepted().bodyValue("accepted");
                })
                .build();
    }
}
