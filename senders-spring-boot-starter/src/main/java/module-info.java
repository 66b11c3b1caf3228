/**
 * Spring Boot 4 auto-configuration of an application-wide async scope: the {@code CountingScope}
 * bean, the spawners ({@link dev.senders.spring.boot.ScopeSpawner},
 * {@link dev.senders.spring.boot.ReactorScopeSpawner}, {@link dev.senders.spring.boot.RxScopeSpawner}),
 * its bounded shutdown ({@link dev.senders.spring.boot.ScopeShutdown}), error log, context
 * propagation, Micrometer meters, an Actuator health contributor and endpoint.
 *
 * <p>Spring Boot and Spring Framework are automatic modules ({@code spring.boot},
 * {@code spring.context}, ...). Every optional feature's library is {@code requires static}: the
 * auto-configuration backs off when it is absent. The auto-configuration package is open to
 * Spring, which calls its package-private {@code @Bean} methods reflectively.
 */
module dev.senders.spring.boot {
    requires transitive dev.senders.core;
    requires transitive spring.boot;
    requires transitive spring.boot.autoconfigure;
    requires transitive spring.context;
    requires transitive spring.beans;
    requires transitive spring.core; // Ordered (the decorators), Environment (SendersScopeProperties.bind)
    requires spring.aop;
    requires org.slf4j;

    // Optional features; transitive where the library's types are in this module's API.
    requires static transitive dev.senders.reactor;
    requires static transitive reactor.core;
    requires static transitive org.reactivestreams;
    requires static transitive dev.senders.rxjava3;
    requires static transitive io.reactivex.rxjava3;
    requires static transitive context.propagation;
    requires static ch.qos.logback.classic; // MdcAccess: Logback's read-only MDC map
    requires static transitive micrometer.core;
    requires static transitive micrometer.observation;
    requires static transitive micrometer.commons; // KeyValues in the observation convention
    requires static transitive spring.boot.health;
    requires static transitive spring.boot.actuator;
    requires static transitive spring.boot.actuator.autoconfigure;
    requires static spring.boot.web.server;
    requires static transitive org.jspecify; // @Nullable on the endpoint's optional parameter

    exports dev.senders.spring.boot;
    exports dev.senders.spring.boot.actuate;
    exports dev.senders.spring.boot.autoconfigure;
    exports dev.senders.spring.boot.metrics;

    opens dev.senders.spring.boot.autoconfigure to spring.core, spring.beans, spring.context;
    // the executor tracking's post-processors (public, not API): Spring introspects them
    opens dev.senders.spring.boot.task to spring.core, spring.beans, spring.context, spring.aop;
}
