package dev.senders.spring.boot.actuate;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeSpawner;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The application scope's health ({@code /actuator/health/senders}):
 * <ul>
 * <li>{@code UP} while the scope accepts work (states {@code UNUSED}, {@code OPEN},
 *     {@code OPEN_AND_JOINING});
 * <li>{@code OUT_OF_SERVICE} once it is closed: while shutdown drains its work
 *     ({@code CLOSED}, {@code CLOSED_AND_JOINING}) and after ({@code JOINED},
 *     {@code UNUSED_AND_CLOSED}). The scope refuses new work on purpose; nothing is broken, so
 *     not {@code DOWN}.
 * </ul>
 * It is not a readiness signal, and the shutdown's {@code OUT_OF_SERVICE} is not seen over HTTP:
 * the starter closes the scope after the web server has stopped (so that accepted requests can
 * still spawn their work), and from then on no health request is served. It is seen by in-process
 * readers ({@code HealthEndpoint}, JMX) and over HTTP only when the scope is closed while the server
 * still serves. Readiness during shutdown is Spring Boot's own: it publishes
 * {@code ReadinessState.REFUSING_TRAFFIC} when the context starts closing, before the server and
 * the scope stop.
 * Failed work does not change the status (its errors are handled: logged and counted), and neither
 * does a full scope: with {@code senders.scope.max-outstanding} set, a scope that holds that many
 * operations is still {@code UP} (it is working at capacity and refuses only the excess, with
 * {@code 503}s the client can retry), with the details {@code maxOutstanding}, {@code saturated}
 * ({@code true} at the limit) and {@code refusedFull}. Details:
 * {@code scope} (the name), {@code state}, {@code active} (outstanding work), {@code failed} (the
 * scope's error count, all its work). A health check reads counters only: its cost does not grow
 * with the outstanding work.
 */
public final class SendersHealthIndicator extends AbstractHealthIndicator {

    private final ScopeSpawner spawner;

    /**
     * The health of {@code spawner}'s scope.
     *
     * @param spawner the application scope
     */
    public SendersHealthIndicator(ScopeSpawner spawner) {
        super("senders scope health check failed");
        this.spawner = Objects.requireNonNull(spawner, "spawner");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        ScopeReport r = spawner.counters();
        (r.open() ? builder.up() : builder.outOfService())
                .withDetail("scope", r.name())
                .withDetail("state", r.state().name())
                .withDetail("active", r.active())
                .withDetail("failed", r.scopeFailed());
        if (r.maxOutstanding() != null) {
            builder.withDetail("maxOutstanding", r.maxOutstanding())
                    .withDetail("saturated", r.saturated())
                    .withDetail("refusedFull", r.scopeRefusedFull());
        }
    }
}
