package dev.senders.examples.webflux;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code audit.*} configuration properties. How long shutdown waits for the side effects is
 * the starter's {@code senders.scope.shutdown.grace} (then {@code stop-timeout}).
 *
 * @param mode            {@code scope} (the side effects are spawned into the application scope) or
 *                        {@code subscribe} (plain {@code mono.subscribe()}, to show what is lost)
 * @param writeDelay      how slow one audit write is (stands in for a slow store)
 * @param threads         the size of the dedicated pool that runs the blocking JDBC writes
 * @param dbUrl           the JDBC URL of the audit store
 */
@ConfigurationProperties("audit")
public record AuditProperties(
        @DefaultValue("scope") Mode mode,
        @DefaultValue("200ms") Duration writeDelay,
        @DefaultValue("8") int threads,
        @DefaultValue("jdbc:h2:mem:audit;DB_CLOSE_DELAY=-1") String dbUrl) {

    /** How the side effects are started. */
    public enum Mode {
        /** The starter's {@code ReactorScopeSpawner}: spawned into the application's {@code CountingScope}. */
        SCOPE,
        /** Plain {@code mono.subscribe()}: fire and forget, nobody waits for it. */
        SUBSCRIBE
    }
}
