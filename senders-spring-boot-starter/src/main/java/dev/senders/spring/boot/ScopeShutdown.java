package dev.senders.spring.boot;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.jspecify.annotations.Nullable;

/**
 * Closes and joins the application scope when the context shuts down, within bounds.
 *
 * <p><b>When.</b> A {@link SmartLifecycle} in {@link #PHASE}. Spring stops lifecycle beans from
 * the highest phase to the lowest, one phase at a time, each phase waiting for all its beans'
 * stop callbacks; beans are destroyed (pools closed, {@code destroyMethod}s run) only after the
 * last phase. With Spring Boot 4's phases:
 * <pre>
 *   DEFAULT_PHASE          (Integer.MAX_VALUE) most SmartLifecycles: message listener containers,
 *                          schedulers: other producers of work stop first
 *   DEFAULT_PHASE - 1024   WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE
 *                          (WebServerGracefulShutdownLifecycle): the server stops accepting and waits
 *                          for in-flight requests (server.shutdown=graceful, Boot's default), which
 *                          may still spawn work: the scope is still open for them
 *   DEFAULT_PHASE - 2048   WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE
 *                          (WebServerStartStopLifecycle): the server stops (with server.shutdown=
 *                          immediate, in-flight requests end here)
 *   PHASE = DEFAULT_PHASE - 3072   this: no request is being handled any more; the scope closes
 *                          (later spawns are refused) and is joined
 *   0                      plain Lifecycle beans, and ReactorResourceFactory (the event loops and
 *                          connection pool WebClient uses): still running while the scope joins
 *   then                   bean destruction: JDBC/R2DBC pools, clients, executors' destroy methods
 * </pre>
 * So spawned work finishes before anything it uses goes away, and nothing an HTTP request does is
 * refused because of shutdown.
 *
 * <p><b>How long.</b> {@code stop} closes the scope and starts its join, then returns; the
 * callback Spring passes runs when the shutdown ends, which is one of ({@link Outcome}):
 * <ol>
 * <li>{@code JOINED}: all work finished within {@code senders.scope.shutdown.grace};
 * <li>{@code STOPPED}: at the grace, stop was requested on the scope (Reactor and RxJava work is
 *     cancelled, sender work sees its stop token fire) and the work ended within
 *     {@code senders.scope.shutdown.stop-timeout} more;
 * <li>{@code ABANDONED}: work still ran at grace + stop-timeout; it is logged at {@code ERROR}
 *     (each piece the scope can list on a line of its own, with its name and age: see
 *     {@link ScopeReport#outstanding()}) and shutdown goes on without it.
 * </ol>
 * Shutdown therefore never takes longer than grace + stop-timeout (plus the cost of the log line).
 * The timers run on the JDK's {@code CompletableFuture} delay thread, and the stop request on a
 * thread of its own, so a saturated common pool or a stop callback that blocks cannot extend them.
 * At {@link #start()} the bean raises Spring's shutdown timeout for its own phase to at least
 * grace + stop-timeout + 1 s, so that Spring does not give up on the phase (and destroy the beans
 * the work uses) before those bounds; other phases keep
 * {@code spring.lifecycle.timeout-per-shutdown-phase}.
 *
 * <p><b>Other paths.</b> {@link #stop()} does the same and blocks until the shutdown ends. If the
 * context is destroyed without a lifecycle stop (its refresh failed after this bean was created),
 * {@link #destroy()} runs the same shutdown and blocks until it ends. A shutdown happens once:
 * the scope is single-use, so a {@code start()} after a stop does not reopen it and later spawns
 * are refused. {@link #isPauseable()} is {@code false}: {@code context.pause()} does not close it.
 *
 * <p>Listeners ({@link Listener} beans, such as the starter's metrics) are told the
 * {@link Result}, on the thread that ended the shutdown, before Spring's callback runs.
 */
public final class ScopeShutdown implements SmartLifecycle, BeanFactoryAware, DisposableBean {

    /**
     * The phase: below the web server's stop ({@link WebServerApplicationContext#START_STOP_LIFECYCLE_PHASE},
     * DEFAULT_PHASE - 2048), above {@code ReactorResourceFactory} and plain {@code Lifecycle} beans
     * (0). See the class comment.
     */
    public static final int PHASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

    private static final Logger log = LoggerFactory.getLogger(ScopeShutdown.class);
    private static final Duration PHASE_TIMEOUT_MARGIN = Duration.ofSeconds(1);

    /** How a shutdown ended. */
    public enum Outcome {
        /** All work finished within the grace. */
        JOINED,
        /** Work outlasted the grace; after the stop request it ended within the stop timeout. */
        STOPPED,
        /** Work still ran at grace + stop timeout; shutdown went on without it. */
        ABANDONED
    }

    /**
     * What a shutdown did.
     *
     * @param outcome  how it ended
     * @param duration from the scope's close to the end of the shutdown
     * @param report   the scope when the shutdown ended ({@code report.active()} is what was abandoned)
     */
    public record Result(Outcome outcome, Duration duration, ScopeReport report) {
    }

    /** Told the result of the shutdown, once, on the thread that ended it. Must not block. */
    @FunctionalInterface
    public interface Listener {
        /**
         * Called once when the shutdown has ended.
         *
         * @param result how it ended
         */
        void scopeShutDown(Result result);
    }

    private final ScopeSpawner spawner;
    private final Duration grace;
    private final Duration stopTimeout;
    private final Duration phaseTimeout;
    private final List<Listener> listeners;
    private final AtomicBoolean begun = new AtomicBoolean();
    private final AtomicBoolean finished = new AtomicBoolean();
    private final CompletableFuture<Result> done = new CompletableFuture<>();
    private volatile boolean running;
    private volatile boolean stopRequested;
    private volatile long closedAt;
    private @Nullable BeanFactory beanFactory;

    /**
     * @param spawner     the application scope
     * @param grace       how long to wait for work after the close before requesting stop
     * @param stopTimeout how much longer to wait after the stop request
     * @param phaseTimeout Spring's shutdown-phase timeout ({@code spring.lifecycle.timeout-per-shutdown-phase}),
     *                    which this phase's timeout is never set below
     * @param listeners   told the result
     */
    public ScopeShutdown(ScopeSpawner spawner, Duration grace, Duration stopTimeout, Duration phaseTimeout,
            List<Listener> listeners) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
        this.phaseTimeout = Objects.requireNonNull(phaseTimeout, "phaseTimeout");
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** Marks the bean running and makes Spring wait for this phase at least grace + stop-timeout + 1 s. */
    @Override
    public void start() {
        running = true;
        String name = AbstractApplicationContext.LIFECYCLE_PROCESSOR_BEAN_NAME;
        if (beanFactory != null && beanFactory.containsBean(name)
                && beanFactory.getBean(name) instanceof DefaultLifecycleProcessor processor) {
            Duration ours = grace.plus(stopTimeout).plus(PHASE_TIMEOUT_MARGIN);
            processor.setTimeoutForShutdownPhase(PHASE, Math.max(ours.toMillis(), phaseTimeout.toMillis()));
        } else {
            log.warn("Scope '{}': the context's lifecycle processor is not a DefaultLifecycleProcessor: make sure its"
                    + " shutdown timeout for phase {} is at least senders.scope.shutdown.grace + stop-timeout ({} + {})",
                    spawner.name(), PHASE, grace, stopTimeout);
        }
    }

    /** Starts the shutdown (once) and runs {@code callback} when it has ended; returns at once. */
    @Override
    public void stop(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        shutdown().whenComplete((result, error) -> {
            running = false;                       // also after a restart: the scope stays closed
            callback.run();
        });
    }

    /** Starts the shutdown (once) and blocks until it has ended (at most grace + stop-timeout). */
    @Override
    public void stop() {
        await();
    }

    /** As {@link #stop()}, for a context destroyed without a lifecycle stop. */
    @Override
    public void destroy() {
        await();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public boolean isPauseable() {
        return false;
    }

    /**
     * Starts the shutdown if it has not started (closes the scope, starts the join and the timers)
     * and returns its result, completed when it ends. Later calls return the same stage.
     *
     * @return the shutdown's result, completed on the thread that ended it
     */
    public CompletionStage<Result> shutdown() {
        if (begun.compareAndSet(false, true)) {
            begin();
        }
        return done.minimalCompletionStage();
    }

    private void await() {
        CompletionStage<Result> stage = shutdown();
        try {
            // Bounded by the timers; the margin only guards against a listener that blocks.
            stage.toCompletableFuture().get(grace.plus(stopTimeout).plus(PHASE_TIMEOUT_MARGIN).toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.error("Scope '{}': shutdown did not end in time", spawner.name(), e);
        }
    }

    private void begin() {
        CountingScope scope = spawner.scope();
        closedAt = System.nanoTime();
        CompletableFuture<Void> joined;
        try {
            scope.close();
            joined = Senders.toCompletableFuture(scope.join());
        } catch (RuntimeException | Error e) {
            log.error("Scope '{}': close or join failed; shutdown goes on", spawner.name(), e);
            finish(Outcome.ABANDONED);
            return;
        }
        if (joined.isDone()) {
            finish(Outcome.JOINED);
            return;
        }
        log.info("Closed {}: waiting up to {} for its work", spawner.report(), grace);
        joined.whenComplete((v, e) -> finish(stopRequested ? Outcome.STOPPED : Outcome.JOINED));
        CompletableFuture.delayedExecutor(grace.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
                .execute(() -> afterGrace(joined));
    }

    /** On the JDK's delay thread: request stop on a thread of its own, then arm the last timer. */
    private void afterGrace(CompletableFuture<Void> joined) {
        if (joined.isDone()) {
            return;
        }
        stopRequested = true;
        ScopeReport report = spawner.report();
        log.warn("Grace {} over for {}: requesting stop{}", grace, report, report.outstandingLines());
        Thread stopper = new Thread(this::requestStop, "senders-scope-stop-" + spawner.name());
        stopper.setDaemon(true);
        stopper.start();
        CompletableFuture.delayedExecutor(stopTimeout.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
                .execute(() -> {
                    if (!joined.isDone()) {
                        finish(Outcome.ABANDONED);
                    }
                });
    }

    private void requestStop() {
        try {
            spawner.scope().requestStop();
        } catch (RuntimeException | Error e) {
            log.error("Scope '{}': a stop callback of spawned work threw", spawner.name(), e);
        }
    }

    private void finish(Outcome outcome) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        ScopeReport report = spawner.report();
        Result result = new Result(outcome, Duration.ofNanos(System.nanoTime() - closedAt), report);
        switch (outcome) {
            case JOINED, STOPPED -> log.info("Shut down {} in {} ms: {}", report, result.duration().toMillis(), outcome);
            case ABANDONED -> log.error("Abandoned {}: still running {} after the close (grace {} + stop timeout {});"
                    + " shutdown goes on, and the beans that work uses will be destroyed under it{}",
                    report, result.duration(), grace, stopTimeout, report.outstandingLines());
        }
        for (Listener l : listeners) {
            try {
                l.scopeShutDown(result);
            } catch (RuntimeException | Error e) {
                log.error("Scope '{}': shutdown listener {} threw", spawner.name(), l, e);
            }
        }
        running = false;
        done.complete(result);
    }

    @Override
    public String toString() {
        return "ScopeShutdown[" + spawner.name() + ", phase " + PHASE + ", grace " + grace + ", stop timeout "
                + stopTimeout + "]";
    }
}
