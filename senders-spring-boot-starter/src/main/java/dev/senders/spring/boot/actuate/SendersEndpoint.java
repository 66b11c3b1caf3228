package dev.senders.spring.boot.actuate;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeShutdown;
import dev.senders.spring.boot.ScopeSpawner;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code senders} Actuator endpoint ({@code GET /actuator/senders}): the application scope's
 * state, its outstanding work and counters ({@link ScopeReport}), and the shutdown settings.
 * Read-only. Expose it with {@code management.endpoints.web.exposure.include=senders}.
 */
@Endpoint(id = "senders")
public final class SendersEndpoint {

    private final ScopeSpawner spawner;
    private final ShutdownSettings shutdown;

    /**
     * The endpoint of {@code spawner}'s scope.
     *
     * @param spawner     the application scope
     * @param grace       {@code senders.scope.shutdown.grace}
     * @param stopTimeout {@code senders.scope.shutdown.stop-timeout}
     */
    public SendersEndpoint(ScopeSpawner spawner, Duration grace, Duration stopTimeout) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
        this.shutdown = new ShutdownSettings(ScopeShutdown.PHASE, grace.toString(), stopTimeout.toString());
    }

    /**
     * The scope now.
     *
     * @return its state, counters and shutdown settings
     */
    @ReadOperation
    public ScopeDescriptor scope() {
        return new ScopeDescriptor(spawner.report(), shutdown);
    }

    /**
     * The endpoint's answer.
     *
     * @param scope    the scope's state and counters ({@code active} is its outstanding work)
     * @param shutdown how shutdown treats it
     */
    public record ScopeDescriptor(ScopeReport scope, ShutdownSettings shutdown) {
    }

    /**
     * @param phase       the SmartLifecycle phase in which the scope closes
     * @param grace       {@code senders.scope.shutdown.grace} (ISO-8601)
     * @param stopTimeout {@code senders.scope.shutdown.stop-timeout} (ISO-8601)
     */
    public record ShutdownSettings(int phase, String grace, String stopTimeout) {
    }
}
