package dev.senders.spring.boot;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
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
 * <p><b>How long.</b> {@code stop} starts the core's shutdown sequence,
 * {@link Scopes#joinOrStopAsync(CountingScope, Duration, Duration, int, java.util.function.Consumer)}
 * (close, join, stop request at the grace, give up at the stop timeout), then returns; the callback
 * Spring passes runs when the shutdown ends, which is one of ({@link ShutdownReport.Outcome}):
 * <ol>
 * <li>{@code JOINED}: all work finished within {@code senders.scope.shutdown.grace};
 * <li>{@code STOPPED}: at the grace, stop was requested on the scope (what each piece of work does
 *     with the request is its own: a subscription is cancelled, a sender sees its stop token fire,
 *     a running executor task is interrupted, a queued one never runs) and the work ended within
 *     {@code senders.scope.shutdown.stop-timeout} more;
 * <li>{@code ABANDONED}: work was still associated at grace + stop-timeout; it is logged at
 *     {@code ERROR} and shutdown goes on without it.
 * </ol>
 * The log lines are the core's: the end is {@code ShutdownReport}'s own text (how it ended, after
 * how long, and what was left: the oldest pieces the scope can list, at most
 * {@code senders.scope.list-limit}, each queued or running for how long with its spawn site's
 * application frames, then counts of the rest, as {@code OutstandingSummary.lines} renders them),
 * followed by the counts by kind of work ({@link ScopeReport}); the grace's {@code WARN} line lists
 * the same way what was still associated then. They speak only of work associated with the scope:
 * work it cannot see (a plain {@code subscribe()}, a thread of its own) is neither waited for nor
 * stopped, and the report says so when it finds nothing active.
 * Shutdown therefore never takes longer than grace + stop-timeout (plus the cost of the log line).
 * The deadlines run on the library's timer thread ({@code senders-timer}), and the stop request on
 * a thread of its own ({@code senders-stop-<scope>}), so a stop callback that blocks cannot extend
 * them. The grace's {@code WARN} line is logged on the timer thread. The JFR events of the core's
 * sequence are recorded ({@code dev.senders.JoinStart}, {@code JoinEnd}, {@code JoinDeadline}).
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
 * {@link ShutdownReport}, on the thread that ended the shutdown, before Spring's callback runs.
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

    /** Told the report of the shutdown, once, on the thread that ended it. Must not block. */
    @FunctionalInterface
    public interface Listener {
        /**
         * Called once when the shutdown has ended.
         *
         * @param report how it ended ({@link ShutdownReport#outcome()}, {@link ShutdownReport#elapsed()})
         *               and what was left
         */
        void scopeShutDown(ShutdownReport report);
    }

    private final ScopeSpawner spawner;
    private final Duration grace;
    private final Duration stopTimeout;
    private final Duration phaseTimeout;
    private final List<Listener> listeners;
    private final AtomicBoolean begun = new AtomicBoolean();
    private final CompletableFuture<ShutdownReport> done = new CompletableFuture<>();
    private volatile boolean running;
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
     * and returns its report, completed when it ends. Later calls return the same stage.
     *
     * @return the shutdown's report, completed on the thread that ended it
     */
    public CompletionStage<ShutdownReport> shutdown() {
        if (begun.compareAndSet(false, true)) {
            begin();
        }
        return done.minimalCompletionStage();
    }

    private void await() {
        CompletionStage<ShutdownReport> stage = shutdown();
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
        CompletableFuture<ShutdownReport> report;
        try {
            report = Senders.toCompletableFuture(Scopes.joinOrStopAsync(scope, grace, stopTimeout,
                    spawner.listLimit(), this::graceOver));
        } catch (RuntimeException | Error e) {
            fail(e);
            return;
        }
        if (!report.isDone()) {
            log.info("Closed {}; waiting up to {} for its work", spawner.counters(), millis(grace));
        }
        report.whenComplete((r, e) -> {
            if (r != null) {
                finish(r);
            } else {
                fail(e);
            }
        });
    }

    /** On the timer thread at the grace deadline, before the stop request. */
    private void graceOver(ShutdownReport atGrace) {
        log.warn("Scope '{}': the {} grace is over with {} operation(s) still associated: requesting stop{}",
                spawner.name(), millis(grace), atGrace.remainingAtGrace(), lines(atGrace.outstanding()));
    }

    private static String millis(Duration d) {
        return d.toMillis() + " ms";
    }

    /** The core's rendering of outstanding work, with the starter's frame selection. */
    private static String lines(OutstandingSummary outstanding) {
        return outstanding.lines(OutstandingSummary.DEFAULT_FRAMES, OutstandingSummary.APPLICATION_FRAMES);
    }

    private void fail(Throwable e) {
        log.error("Scope '{}': close or join failed; shutdown goes on", spawner.name(), e);
        running = false;
        done.completeExceptionally(e);
    }

    private void finish(ShutdownReport result) {
        ScopeReport counts = spawner.counters();
        switch (result.outcome()) {
            case JOINED, STOPPED -> log.info("Shut down: {}. Now {}", result, counts);
            case ABANDONED -> log.error("Gave up: {}\n  Shutdown goes on, and the beans that work uses will be destroyed"
                    + " under it. Now {}", result, counts);
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
