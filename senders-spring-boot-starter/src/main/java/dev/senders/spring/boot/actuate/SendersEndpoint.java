package dev.senders.spring.boot.actuate;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeShutdown;
import dev.senders.spring.boot.ScopeSpawner;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code senders} Actuator endpoint ({@code GET /actuator/senders}): the application scope's
 * state, counters, oldest outstanding work and a summary of all of it ({@link ScopeReport}), and
 * the shutdown settings. The answer stays small at any number of outstanding operations: it lists
 * at most {@code senders.scope.list-limit} pieces of work (oldest first), or {@code limit} when the
 * request gives one ({@code GET /actuator/senders?limit=100}); the rest is counted by name and by
 * kind. The full list is {@code CountingScope.outstanding()}. Read-only. Expose it with
 * {@code management.endpoints.web.exposure.include=senders}.
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
     * The scope now, listing at most {@code senders.scope.list-limit} pieces of outstanding work.
     *
     * @return its state, counters and shutdown settings
     */
    public ScopeDescriptor scope() {
        return scope(null);
    }

    /**
     * The scope now.
     *
     * @param limit the most pieces of outstanding work to list (query parameter {@code limit});
     *              {@code null} for {@code senders.scope.list-limit}
     * @return its state, counters and shutdown settings
     * @throws InvalidEndpointRequestException (HTTP 400) if {@code limit} is negative
     */
    @ReadOperation
    public ScopeDescriptor scope(@Nullable Integer limit) {
        int n = limit == null ? spawner.listLimit() : limit;
        if (n < 0) {
            throw new InvalidEndpointRequestException("limit must be zero or positive, was " + n
                    + ": it is how many pieces of outstanding work to list", "limit must be zero or positive");
        }
        return new ScopeDescriptor(spawner.report(n), shutdown, FireAndForgetDescriptor.of(spawner.scope(), n));
    }

    /**
     * The endpoint's answer.
     *
     * @param scope    the scope's state, counters and the named work still running ({@code outstanding})
     * @param shutdown how shutdown treats it
     * @param fireAndForget the fire-and-forget subscriptions found for the scope, per adapter
     */
    public record ScopeDescriptor(ScopeReport scope, ShutdownSettings shutdown, List<FireAndForgetDescriptor> fireAndForget) {
    }

    /**
     * @param phase       the SmartLifecycle phase in which the scope closes
     * @param grace       {@code senders.scope.shutdown.grace} (ISO-8601)
     * @param stopTimeout {@code senders.scope.shutdown.stop-timeout} (ISO-8601)
     */
    public record ShutdownSettings(int phase, String grace, String stopTimeout) {
    }
}
