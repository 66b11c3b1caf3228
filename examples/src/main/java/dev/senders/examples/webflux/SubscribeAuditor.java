package dev.senders.examples.webflux;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/**
 * The code this example replaces: plain fire and forget. {@code subscribe()} starts the side
 * effect and forgets it; nobody knows when it ends, shutdown does not wait for it, and an error
 * only reaches Reactor's "dropped error" log. Kept to show, in a test, what it loses.
 */
public final class SubscribeAuditor implements Auditor {

    @Override
    public boolean submit(Publisher<?> sideEffect) {
        Flux.from(java.util.Objects.requireNonNull(sideEffect, "sideEffect")).subscribe();
        return true;
    }

    /** Always: plain {@code subscribe()} never refuses. */
    @Override
    public boolean accepting() {
        return true;
    }

    @Override
    public long running() {
        return -1;
    }

    @Override
    public long failed() {
        return -1;
    }
}
