package dev.senders.spring.boot.webapp;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.context.SmartLifecycle;

/**
 * Stands in for a resource that Spring stops in lifecycle phase 0, as it stops
 * {@code ReactorResourceFactory} (the event loops and connection pool of WebClient) and every plain
 * {@code Lifecycle} bean: a use after its stop is a violation, counted in {@link #lateUses}.
 */
public final class PhaseZeroResource implements SmartLifecycle {

    public final AtomicInteger uses = new AtomicInteger();
    public final AtomicInteger lateUses = new AtomicInteger();
    private volatile boolean running;

    /** Uses the resource; after {@link #stop()} counts a late use and fails. */
    public void use() {
        if (!running) {
            lateUses.incrementAndGet();
            throw new IllegalStateException("resource used after it was stopped");
        }
        uses.incrementAndGet();
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return 0;
    }
}
