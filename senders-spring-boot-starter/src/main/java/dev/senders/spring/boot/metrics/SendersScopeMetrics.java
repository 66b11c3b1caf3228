package dev.senders.spring.boot.metrics;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeShutdown;
import dev.senders.spring.boot.ScopeSpawner;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToLongFunction;

/**
 * The application scope's meters, each tagged {@code scope=<senders.scope.name>}:
 * <ul>
 * <li>gauge {@code senders.scope.active}: work associated with the scope and not yet finished;
 * <li>counters {@code senders.scope.spawned}, {@code .completed}, {@code .failed},
 *     {@code .stopped}, {@code .refused}: see {@link ScopeReport} for what each counts;
 * <li>timer {@code senders.scope.shutdown}, tagged {@code outcome=joined|stopped|abandoned}: from
 *     the scope's close at shutdown to the end of its join (or to giving up on it), recorded once.
 * </ul>
 * The gauge and the counters read the scope when a registry polls them; nothing is counted twice.
 * The three timers are registered with the other meters (count 0 until shutdown), because Spring
 * Boot closes its registries when the context-closed event is published, before lifecycle beans
 * stop: the shutdown is recorded into meters that exist, but a push registry has already made its
 * final publication by then, and a scrape endpoint is gone with the web server. The shutdown's
 * log line carries the same duration.
 */
public final class SendersScopeMetrics implements MeterBinder, ScopeShutdown.Listener {

    private final ScopeSpawner spawner;
    private final Tags tags;
    private final List<Map<ScopeShutdown.Outcome, Timer>> shutdownTimers = new CopyOnWriteArrayList<>();

    /**
     * The meters of {@code spawner}'s scope.
     *
     * @param spawner the application scope
     */
    public SendersScopeMetrics(ScopeSpawner spawner) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
        this.tags = Tags.of("scope", spawner.name());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("senders.scope.active", spawner, s -> s.scope().count())
                .description("Work associated with the scope and not yet finished")
                .tags(tags).register(registry);
        counter(registry, "spawned", "Work accepted by the scope through the starter's spawners and token",
                ScopeReport::spawned);
        counter(registry, "completed", "Work that ended with a value", ScopeReport::completed);
        counter(registry, "failed", "Work whose error went to the scope's error handler", ScopeReport::failed);
        counter(registry, "stopped", "Work that ended stopped (cancelled, or stopped by the scope at shutdown)",
                ScopeReport::stopped);
        counter(registry, "refused", "Associations the scope refused because it was closed", ScopeReport::refused);
        Map<ScopeShutdown.Outcome, Timer> timers = new EnumMap<>(ScopeShutdown.Outcome.class);
        for (ScopeShutdown.Outcome outcome : ScopeShutdown.Outcome.values()) {
            timers.put(outcome, Timer.builder("senders.scope.shutdown")
                    .description("From the scope's close at shutdown to the end of its join, or to giving up on it")
                    .tags(tags).tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        shutdownTimers.add(timers);
    }

    private void counter(MeterRegistry registry, String name, String description, ToLongFunction<ScopeReport> f) {
        FunctionCounter.builder("senders.scope." + name, spawner, s -> f.applyAsLong(s.report()))
                .description(description).tags(tags).register(registry);
    }

    @Override
    public void scopeShutDown(ScopeShutdown.Result result) {
        for (Map<ScopeShutdown.Outcome, Timer> timers : shutdownTimers) {
            Objects.requireNonNull(timers.get(result.outcome())).record(result.duration()); // one timer per outcome
        }
    }
}
