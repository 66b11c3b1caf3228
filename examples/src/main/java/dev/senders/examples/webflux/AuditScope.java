package dev.senders.examples.webflux;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The application-wide owner of fire-and-forget work: a {@link CountingScope} that Spring stops
 * before the web server.
 *
 * <ul>
 * <li>{@link #submit} spawns a {@code Publisher} into the scope; it returns {@code false} once the
 *     scope is closed (the caller answers {@code 503}; the work never starts).
 * <li>An error of spawned work goes to the scope's handler: logged and counted, never lost.
 * <li>{@link #stop(Runnable)}: close (refuse new work), join with {@code audit.shutdown-timeout},
 *     then request stop on what is left (its publishers are cancelled) and wait for it to end. The
 *     callback runs when the scope is joined, so Spring's shutdown (and with
 *     {@code server.shutdown=graceful}, the server's) waits for the work. Spring bounds the whole
 *     phase with {@code spring.lifecycle.timeout-per-shutdown-phase} in case work ignores the stop.
 * <li>Phase {@link SmartLifecycle#DEFAULT_PHASE}: above the web server's graceful-shutdown phase,
 *     so this scope closes first and requests that arrive while it joins are still answered (with
 *     {@code 503}) instead of finding a closed socket.
 * <li>Single-use: a closed scope never reopens (P3149), so a {@code start()} after {@code stop()}
 *     does not accept work again.
 * </ul>
 */
public final class AuditScope implements Auditor, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AuditScope.class);

    private final CountingScope scope = new CountingScope(
            error -> log.error("audit side effect failed (routed to the scope's handler)", error));
    private final Duration shutdownTimeout;
    private volatile boolean running;

    public AuditScope(Duration shutdownTimeout) {
        this.shutdownTimeout = Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    }

    /**
     * {@code ReactorScopes.spawn}: subscribes now, on this thread, unless the scope is closed, in
     * which case it returns {@link ReactorScopes#REFUSED}.
     */
    @Override
    public boolean submit(Publisher<?> sideEffect) {
        Objects.requireNonNull(sideEffect, "sideEffect");
        return ReactorScopes.spawn(sideEffect, scope.getToken()) != ReactorScopes.REFUSED;
    }

    @Override
    public long running() {
        return scope.count();
    }

    @Override
    public long failed() {
        return scope.errorCount();
    }

    /** The scope's state (OPEN while serving, JOINED after shutdown). */
    public ScopeState state() {
        return scope.state();
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop(Runnable callback) {
        scope.close();
        log.info("audit scope closed: waiting up to {} for {} side effects", shutdownTimeout, scope.count());
        CompletableFuture<Void> joined = Senders.toCompletableFuture(scope.join());
        joined.copy().orTimeout(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, timeout) -> {
                    if (timeout != null) {
                        log.warn("audit scope not joined within {}: requesting stop on {} side effects",
                                shutdownTimeout, scope.count());
                        scope.requestStop();
                    }
                    joined.whenComplete((v, e) -> {
                        running = false;
                        log.info("audit scope joined: {} failed", scope.errorCount());
                        callback.run();
                    });
                });
    }

    @Override
    public void stop() {
        CountDownLatch done = new CountDownLatch(1);
        stop(done::countDown);
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
