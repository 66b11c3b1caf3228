package dev.senders.examples.webflux;

import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeReport;
import java.util.Objects;
import org.reactivestreams.Publisher;

/**
 * The audit side effects as work of the application scope that the senders Spring Boot starter
 * defines: {@link #submit} spawns with the starter's {@link ReactorScopeSpawner}. Everything about
 * shutdown (close after the web server drained its requests, join within
 * {@code senders.scope.shutdown.grace}, then stop what is left), the error log and the metrics
 * comes from the starter; this class only adapts it to {@link Auditor}.
 */
public final class ScopedAuditor implements Auditor {

    private final ReactorScopeSpawner spawner;

    public ScopedAuditor(ReactorScopeSpawner spawner) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
    }

    /** {@code ReactorScopeSpawner.spawn}: subscribes now, unless the scope is closed or full. */
    @Override
    public boolean submit(Publisher<?> sideEffect) {
        return spawner.spawn(Objects.requireNonNull(sideEffect, "sideEffect"));
    }

    @Override
    public boolean accepting() {
        return counters().open();
    }

    @Override
    public long running() {
        return counters().active();
    }

    @Override
    public long failed() {
        return counters().scopeFailed();
    }

    private ScopeReport counters() {
        return spawner.scopeSpawner().counters();
    }
}
