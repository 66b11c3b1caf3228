package dev.senders.examples.webflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A Spring WebFlux service that answers each request at once and leaves a slow side effect (an
 * audit write into an embedded H2 database) running behind it, owned by the application-wide
 * {@link dev.senders.scope.CountingScope} of the senders Spring Boot starter: on shutdown, once the
 * web server has drained its requests, the scope is closed, joined for
 * {@code senders.scope.shutdown.grace}, and what is left is asked to stop, before the writer pool
 * and the store are destroyed. No accepted side effect is lost. The app has no scope wiring of its
 * own.
 *
 * <pre>{@code
 * mvn -B -q -pl examples -am -DskipTests package \
 *     exec:java -Dexec.mainClass=dev.senders.examples.webflux.AuditApplication
 * curl -X POST http://127.0.0.1:8080/orders/42      # 202 order 42 accepted
 * curl http://127.0.0.1:8080/audit/stats
 * }</pre>
 *
 * With {@code --audit.mode=subscribe} the same app uses plain {@code mono.subscribe()}: shutdown
 * then loses whatever was still running.
 */
@SpringBootApplication
@EnableConfigurationProperties(AuditProperties.class)
public class AuditApplication {

    public static void main(String[] args) {
        SpringApplication.run(AuditApplication.class, args);
    }
}
