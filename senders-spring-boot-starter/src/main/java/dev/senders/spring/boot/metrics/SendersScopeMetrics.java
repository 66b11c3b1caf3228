package dev.senders.spring.boot.metrics;

import dev.senders.scope.RefusalReason;
import dev.senders.scope.ShutdownReport;
import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.ScopeShutdown;
import dev.senders.spring.boot.ScopeSpawner;
import dev.senders.spring.boot.WorkKind;
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
 * <li>counters {@code senders.scope.spawned}, {@code .completed}, {@code .stopped}, each tagged
 *     {@code kind=spawned|executor_task|subscription}: work the starter handed to the scope, by
 *     {@link WorkKind} ({@link ScopeReport#counts(WorkKind)}: {@code started}, {@code completed},
 *     {@code stopped}; for {@code subscription}, the fire-and-forget subscriptions found and ended,
 *     as {@link ScopeReport} defines them); {@code senders.scope.failed} and {@code .refused}: all the
 *     scope's work, however spawned ({@link ScopeReport#scopeFailed()},
 *     {@link ScopeReport#scopeRefused()}); {@code .refused} is tagged {@code reason=closed|full}
 *     (the scope's {@code refusedCount(RefusalReason)}: closed, or at {@code senders.scope.max-outstanding});
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
    private final List<Map<ShutdownReport.Outcome, Timer>> shutdownTimers = new CopyOnWriteArrayList<>();

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
        for (WorkKind kind : WorkKind.values()) {
            Tags kindTag = Tags.of("kind", kind.name().toLowerCase(Locale.ROOT));
            counter(registry, "spawned", "Work of this kind the scope accepted through the starter"
                    + " (subscriptions: found by the fire-and-forget hooks)", kindTag,
                    r -> r.counts(kind).started());
            counter(registry, "completed", "Work of this kind that ended with a value"
                    + " (subscriptions: that ended)", kindTag,
                    r -> r.counts(kind).completed());
            counter(registry, "stopped", "Work of this kind that ended stopped (cancelled, or stopped by the scope"
                    + " at shutdown)", kindTag, r -> r.counts(kind).stopped());
        }
        counter(registry, "failed", "Work whose error went to the scope's error handler, however it was spawned",
                Tags.empty(), ScopeReport::scopeFailed);
        for (RefusalReason reason : RefusalReason.values()) {
            FunctionCounter.builder("senders.scope.refused", spawner, s -> s.scope().refusedCount(reason))
                    .description("Associations the scope refused, however they were attempted, by reason")
                    .tags(tags).tag("reason", reason.name().toLowerCase(Locale.ROOT)).register(registry);
        }
        Map<ShutdownReport.Outcome, Timer> timers = new EnumMap<>(ShutdownReport.Outcome.class);
        for (ShutdownReport.Outcome outcome : ShutdownReport.Outcome.values()) {
            timers.put(outcome, Timer.builder("senders.scope.shutdown")
                    .description("From the scope's close at shutdown to the end of its join, or to giving up on it")
                    .tags(tags).tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        shutdownTimers.add(timers);
    }

    private void counter(MeterRegistry registry, String name, String description, Tags extra,
            ToLongFunction<ScopeReport> f) {
        FunctionCounter.builder("senders.scope." + name, spawner, s -> f.applyAsLong(s.counters()))
                .description(description).tags(tags).tags(extra).register(registry);
    }

    @Override
    public void scopeShutDown(ShutdownReport report) {
        for (Map<ShutdownReport.Outcome, Timer> timers : shutdownTimers) {
            Objects.requireNonNull(timers.get(report.outcome())).record(report.elapsed()); // one timer per outcome
        }
    }
}
