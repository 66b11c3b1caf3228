package dev.senders.spring.boot;

import dev.senders.scope.FireAndForgetMode;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.jspecify.annotations.Nullable;

/**
 * The {@code senders.scope.*} configuration properties of the application-wide scope.
 *
 * <p>Bound once, when the context starts; the setters reject values that would make shutdown
 * unbounded or meaningless (a blank name, a negative duration) with an
 * {@link IllegalArgumentException} that names the property, which Spring Boot reports as a
 * binding failure at startup.
 */
@ConfigurationProperties(SendersScopeProperties.PREFIX)
public class SendersScopeProperties {

    /** The properties' prefix. */
    public static final String PREFIX = "senders.scope";

    /**
     * The properties as {@code environment} sets them, bound now: for what must decide before the
     * properties bean exists (a condition, a static bean post-processor). Each property is bound
     * here and in the bean by this one class, so its default is written once, in its field.
     *
     * @param environment the context's environment
     * @return the bound properties (the defaults where nothing is set)
     */
    public static SendersScopeProperties bind(Environment environment) {
        return Binder.get(environment).bindOrCreate(PREFIX, SendersScopeProperties.class);
    }

    /** The scope's default name. */
    public static final String DEFAULT_NAME = "application";

    /**
     * The scope's name: it appears in the log lines of failed work and of shutdown, as the "scope"
     * tag of the senders.scope.* metrics, in the health details and in the senders endpoint.
     */
    private String name = DEFAULT_NAME;

    /**
     * Whether work spawned through the starter's beans sees the context of the thread that spawned
     * it (MDC, trace, security context: every Micrometer context-propagation ThreadLocalAccessor).
     * Needs io.micrometer:context-propagation on the class path.
     */
    private boolean contextPropagation = true;

    /**
     * How many pieces of outstanding work the senders endpoint, the shutdown log lines and the scope
     * report list (oldest first) before they summarize the rest (counts by name and kind, oldest
     * age, how many not shown). The endpoint's limit parameter overrides it per request.
     */
    private int listLimit = 20; // OutstandingSummary.DEFAULT_LIMIT, written out for the metadata's default value

    /**
     * The most operations the scope holds at once; at the limit, spawns are refused as when the
     * scope is closed (the spawners return false, the refusal is counted with reason "full"), until
     * some of the work has ended. Unset: no limit.
     */
    private @Nullable Long maxOutstanding;

    /**
     * Whether tasks submitted to Spring Boot's applicationTaskExecutor (what @Async methods and
     * injected TaskExecutors use) are work of the scope: joined at shutdown, interrupted when they
     * outlive the grace, listed by name and counted. Executor beans marked @ScopeTracked are
     * tracked whatever this says.
     */
    private boolean trackTaskExecutor = true;

    /**
     * Whether work spawned with ReactorScopes.spawn or RxScopes.spawn stays work of the scope while
     * the tasks it scheduled on Reactor's or RxJava's schedulers run, so that shutdown waits for
     * (or reports) code that ignores its cancellation: installs Reactor's schedule hook and
     * RxJava's schedule handler while the context runs.
     */
    private boolean trackScheduledTasks = true;

    /**
     * What to do with the application's fire-and-forget subscriptions (a plain mono.subscribe(),
     * RxJava's lambda subscribe): off; report, to count and list them and name them in the
     * shutdown log; or track, to make them work of the scope, joined, stopped past the grace and
     * listed.
     */
    private FireAndForgetMode fireAndForget = FireAndForgetMode.OFF;

    private final Shutdown shutdown = new Shutdown();

    /** The defaults: name {@value #DEFAULT_NAME}, context propagation on, list limit 20, grace 30 s, stop timeout 10 s. */
    public SendersScopeProperties() {
    }

    /**
     * The scope's name.
     *
     * @return {@code senders.scope.name}
     */
    public String getName() {
        return name;
    }

    /**
     * Sets the scope's name.
     *
     * @param name not blank
     * @throws IllegalArgumentException if {@code name} is null or blank
     */
    public void setName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("senders.scope.name must not be blank: it names the scope in logs,"
                    + " metric tags and the senders endpoint");
        }
        this.name = name;
    }

    /**
     * Whether spawned work carries the spawning thread's context.
     *
     * @return {@code senders.scope.context-propagation}
     */
    public boolean isContextPropagation() {
        return contextPropagation;
    }

    /**
     * Sets whether spawned work carries the spawning thread's context.
     *
     * @param contextPropagation {@code true} to carry it
     */
    public void setContextPropagation(boolean contextPropagation) {
        this.contextPropagation = contextPropagation;
    }

    /**
     * How many pieces of outstanding work views list before they summarize the rest.
     *
     * @return {@code senders.scope.list-limit}
     */
    public int getListLimit() {
        return listLimit;
    }

    /**
     * Sets how many pieces of outstanding work views list.
     *
     * @param listLimit zero or positive
     * @throws IllegalArgumentException if {@code listLimit} is negative
     */
    public void setListLimit(int listLimit) {
        if (listLimit < 0) {
            throw new IllegalArgumentException("senders.scope.list-limit must be zero or positive, was " + listLimit
                    + ": it is how many pieces of outstanding work the endpoint and the shutdown log list");
        }
        this.listLimit = listLimit;
    }

    /**
     * The most operations the scope holds at once.
     *
     * @return {@code senders.scope.max-outstanding}, or {@code null} for no limit
     */
    public @Nullable Long getMaxOutstanding() {
        return maxOutstanding;
    }

    /**
     * Sets the most operations the scope holds at once.
     *
     * @param maxOutstanding at least 1, or {@code null} for no limit
     * @throws IllegalArgumentException if {@code maxOutstanding} is below 1
     */
    public void setMaxOutstanding(@Nullable Long maxOutstanding) {
        if (maxOutstanding != null && maxOutstanding < 1) {
            throw new IllegalArgumentException("senders.scope.max-outstanding must be at least 1, was " + maxOutstanding
                    + ": it is how many operations the scope holds at once (leave it unset for no limit)");
        }
        this.maxOutstanding = maxOutstanding;
    }

    /**
     * Whether Spring Boot's {@code applicationTaskExecutor} is tracked by the scope.
     *
     * @return {@code senders.scope.track-task-executor}
     */
    public boolean isTrackTaskExecutor() {
        return trackTaskExecutor;
    }

    /**
     * Sets whether Spring Boot's {@code applicationTaskExecutor} is tracked by the scope.
     *
     * @param trackTaskExecutor {@code true} to track it
     */
    public void setTrackTaskExecutor(boolean trackTaskExecutor) {
        this.trackTaskExecutor = trackTaskExecutor;
    }

    /**
     * Whether spawned Reactor and RxJava work is tracked while its scheduled tasks run.
     *
     * @return {@code senders.scope.track-scheduled-tasks}
     */
    public boolean isTrackScheduledTasks() {
        return trackScheduledTasks;
    }

    /**
     * Sets whether spawned Reactor and RxJava work is tracked while its scheduled tasks run.
     *
     * @param trackScheduledTasks {@code true} to install the scheduler hooks
     */
    public void setTrackScheduledTasks(boolean trackScheduledTasks) {
        this.trackScheduledTasks = trackScheduledTasks;
    }

    /**
     * What is done with fire-and-forget subscriptions.
     *
     * @return {@code senders.scope.fire-and-forget}
     */
    public FireAndForgetMode getFireAndForget() {
        return fireAndForget;
    }

    /**
     * Sets what is done with fire-and-forget subscriptions.
     *
     * @param fireAndForget {@code off}, {@code report} or {@code track}
     */
    public void setFireAndForget(FireAndForgetMode fireAndForget) {
        this.fireAndForget = fireAndForget;
    }

    /**
     * The shutdown settings.
     *
     * @return {@code senders.scope.shutdown.*}
     */
    public Shutdown getShutdown() {
        return shutdown;
    }

    /** The {@code senders.scope.shutdown.*} properties: how long shutdown waits, and in which steps. */
    public static class Shutdown {

        /**
         * How long shutdown waits for spawned work to finish once the scope is closed, before it
         * requests stop on what is still running. Like spring.lifecycle.timeout-per-shutdown-phase.
         */
        private Duration grace = Duration.ofSeconds(30);

        /**
         * How much longer shutdown waits after requesting stop; work still running then is logged
         * and shutdown goes on without it.
         */
        private Duration stopTimeout = Duration.ofSeconds(10);

        /** The defaults: grace 30 s, stop timeout 10 s. */
        public Shutdown() {
        }

        /**
         * How long shutdown waits before requesting stop.
         *
         * @return {@code senders.scope.shutdown.grace}
         */
        public Duration getGrace() {
            return grace;
        }

        /**
         * Sets how long shutdown waits before requesting stop.
         *
         * @param grace zero or positive
         * @throws IllegalArgumentException if {@code grace} is negative
         */
        public void setGrace(Duration grace) {
            this.grace = nonNegative(grace, "senders.scope.shutdown.grace");
        }

        /**
         * How much longer shutdown waits after requesting stop.
         *
         * @return {@code senders.scope.shutdown.stop-timeout}
         */
        public Duration getStopTimeout() {
            return stopTimeout;
        }

        /**
         * Sets how much longer shutdown waits after requesting stop.
         *
         * @param stopTimeout zero or positive
         * @throws IllegalArgumentException if {@code stopTimeout} is negative
         */
        public void setStopTimeout(Duration stopTimeout) {
            this.stopTimeout = nonNegative(stopTimeout, "senders.scope.shutdown.stop-timeout");
        }

        private static Duration nonNegative(Duration d, String property) {
            Objects.requireNonNull(d, property);
            if (d.isNegative()) {
                throw new IllegalArgumentException(property + " must be zero or positive, was " + d
                        + ": shutdown cannot wait a negative time");
            }
            return d;
        }
    }
}
