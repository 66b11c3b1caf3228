package dev.senders.spring.boot.metrics;

import dev.senders.scope.FireAndForgetTracker;
import dev.senders.spring.boot.FireAndForgetHooks;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * The fire-and-forget meters, per installed tracker (tags {@code scope} and {@code adapter}):
 * <ul>
 * <li>{@code senders.fire_and_forget.active} (gauge): found subscriptions running now;
 * <li>{@code senders.fire_and_forget.found} (counter): found since startup;
 * <li>{@code senders.fire_and_forget.untracked} (counter): found in {@code track} after the scope
 *     closed, so run untracked.
 * </ul>
 */
public final class FireAndForgetMetrics implements MeterBinder {

    private final FireAndForgetHooks hooks;

    /**
     * @param hooks the application's fire-and-forget hooks
     */
    public FireAndForgetMetrics(FireAndForgetHooks hooks) {
        this.hooks = Objects.requireNonNull(hooks, "hooks");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (FireAndForgetTracker t : hooks.trackers()) {
            String scope = t.scope().name();
            Gauge.builder("senders.fire_and_forget.active", t, FireAndForgetTracker::activeCount)
                    .description("Fire-and-forget subscriptions running now")
                    .tag("scope", scope).tag("adapter", t.adapter())
                    .register(registry);
            FunctionCounter.builder("senders.fire_and_forget.found", t, FireAndForgetTracker::foundCount)
                    .description("Fire-and-forget subscriptions found since startup")
                    .tag("scope", scope).tag("adapter", t.adapter())
                    .register(registry);
            FunctionCounter.builder("senders.fire_and_forget.untracked", t, FireAndForgetTracker::untrackedCount)
                    .description("Fire-and-forget subscriptions made after the scope closed, run untracked")
                    .tag("scope", scope).tag("adapter", t.adapter())
                    .register(registry);
        }
    }
}
