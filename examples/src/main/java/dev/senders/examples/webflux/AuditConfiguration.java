package dev.senders.examples.webflux;

import dev.senders.spring.boot.ReactorScopeSpawner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** The beans: store, writer pool, auditor (scope or plain subscribe), service, routes. */
@Configuration(proxyBeanMethods = false)
@EnableAsync
public class AuditConfiguration {

    @Bean
    AuditStore auditStore(AuditProperties props) {
        return new AuditStore(props.dbUrl(), props.writeDelay());
    }

    /** A dedicated pool for the blocking writes; disposed (running writes interrupted) on context close. */
    @Bean(destroyMethod = "dispose")
    Scheduler auditWriters(AuditProperties props) {
        return Schedulers.newBoundedElastic(props.threads(), 100_000, "audit-writer");
    }

    /** The starter's application scope, or (to show what it prevents) plain {@code subscribe()}. */
    @Bean
    Auditor auditor(AuditProperties props, ObjectProvider<ReactorScopeSpawner> scope) {
        return switch (props.mode()) {
            case SCOPE -> new ScopedAuditor(scope.getObject());
            case SUBSCRIBE -> new SubscribeAuditor();
        };
    }

    @Bean
    AuditService auditService(AuditStore store, Scheduler auditWriters, Auditor auditor) {
        return new AuditService(store, auditWriters, auditor);
    }

    /** The {@code @Async} audit writer: its tasks run on Spring Boot's executor, in the scope. */
    @Bean
    AsyncAuditWriter asyncAuditWriter(AuditStore store) {
        return new AsyncAuditWriter(store);
    }

    @Bean
    OrderHandler orderHandler(AuditService auditService, AsyncAuditWriter asyncAuditWriter) {
        return new OrderHandler(auditService, asyncAuditWriter);
    }

    @Bean
    RouterFunction<ServerResponse> routes(OrderHandler handler) {
        return RouterFunctions.route()
                .POST("/orders/{id}", handler::placeOrder)
                .POST("/orders/{id}/async", handler::placeOrderAsync)
                .GET("/audit/stats", handler::stats)
                .GET("/audit/async/stats", handler::asyncStats)
                .build();
    }
}
