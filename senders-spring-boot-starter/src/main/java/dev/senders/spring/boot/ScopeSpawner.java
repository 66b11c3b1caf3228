package dev.senders.spring.boot;

import dev.senders.Sender;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.RefusalReason;
import dev.senders.scope.Scopes;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The application-wide scope as the starter manages it: spawn fire-and-forget work into it and
 * read its state. Inject it where sender work is spawned, or {@link ReactorScopeSpawner} /
 * {@link RxScopeSpawner} for Reactor and RxJava sources.
 *
 * <ul>
 * <li>{@link #spawn(Sender)} is {@code Scopes.spawn} with the scope's own token: the work starts at
 *     once, on the calling thread, unless the scope is closed (the application is shutting down)
 *     or full ({@code senders.scope.max-outstanding}): then it never starts and {@code spawn} returns {@code false}. Shutdown waits for spawned work
 *     ({@link ScopeShutdown}), and its stop request reaches it.
 * <li>An error of spawned work goes to the scope's error handler, once, and is counted by the
 *     scope: with the starter's scope, one {@code ERROR} line through SLF4J naming the scope
 *     ({@link SpawnErrorLogger}); with an application's own {@code CountingScope}, its handler.
 * <li>The work's connect, start and completion run with the spawning thread's context installed
 *     ({@link SpawnContext}): the error's log line carries the request's MDC.
 * <li>{@link #spawn(Sender, String)} names the work: the report lists it while it runs (name, age)
 *     and its error's log line names it.
 * <li>Each piece of named work is observed ({@link WorkObservation}): with the starter and a
 *     Micrometer {@code ObservationRegistry}, an {@code Observation} named {@code senders.work},
 *     child of the spawning request's ({@link MicrometerWorkObservation}).
 * <li>{@link #report()} counts what was handed to this spawner (and its Reactor and RxJava
 *     siblings), and the scope's own counts of all its work ({@link ScopeReport} names which is
 *     which). Work spawned with {@code scope().getToken()} directly is joined, stopped and its
 *     errors handled and counted by the scope just the same (in {@code active}, {@code scopeFailed},
 *     {@code scopeRefused}, and listed if named), but not in the spawners' counters, and does not
 *     carry the spawning thread's context.
 * </ul>
 * Thread-safe; one per application scope.
 */
public final class ScopeSpawner {

    private final CountingScope scope;
    private final String name;
    private final SpawnContext context;
    private final int listLimit;
    private final WorkObservation observation;
    private final SpawnCounters counters = new SpawnCounters();

    /**
     * A spawner whose reports list at most {@link OutstandingSummary#DEFAULT_LIMIT} pieces of work.
     *
     * @param scope   the application's scope
     * @param name    its name, for logs, metrics and reports
     * @param context what spawned work carries from the spawning thread ({@link SpawnContext#NONE}
     *                for nothing)
     */
    public ScopeSpawner(CountingScope scope, String name, SpawnContext context) {
        this(scope, name, context, OutstandingSummary.DEFAULT_LIMIT);
    }

    /**
     * @param scope     the application's scope
     * @param name      its name, for logs, metrics and reports
     * @param context   what spawned work carries from the spawning thread ({@link SpawnContext#NONE}
     *                  for nothing)
     * @param listLimit the most pieces of outstanding work {@link #report()} lists
     *                  ({@code senders.scope.list-limit})
     * @throws IllegalArgumentException if {@code listLimit} is negative
     */
    public ScopeSpawner(CountingScope scope, String name, SpawnContext context, int listLimit) {
        this(scope, name, context, listLimit, WorkObservation.NONE);
    }

    /**
     * @param scope       the application's scope
     * @param name        its name, for logs, metrics, observations and reports
     * @param context     what spawned work carries from the spawning thread ({@link SpawnContext#NONE}
     *                    for nothing)
     * @param listLimit   the most pieces of outstanding work {@link #report()} lists
     *                    ({@code senders.scope.list-limit})
     * @param observation how spawned work is observed ({@link WorkObservation#NONE} for not at all)
     * @throws IllegalArgumentException if {@code listLimit} is negative
     */
    public ScopeSpawner(CountingScope scope, String name, SpawnContext context, int listLimit,
            WorkObservation observation) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.name = Objects.requireNonNull(name, "name");
        this.context = Objects.requireNonNull(context, "context");
        this.listLimit = OutstandingSummary.checkLimit(listLimit);
        this.observation = Objects.requireNonNull(observation, "observation");
    }

    /**
     * Spawns {@code work} into the scope; see the class comment.
     *
     * @param work the sender to connect and start now, on this thread
     * @return {@code true} if the work was started; {@code false} if the scope is closed or full
     *         ({@code senders.scope.max-outstanding}), in which case {@code work} is never connected
     *         or started
     * @throws NullPointerException if {@code work} is null
     */
    public boolean spawn(Sender<?> work) {
        return spawnObserved(observe(work, null));
    }

    /**
     * Spawns {@code work} into the scope under {@code workName} ({@code Scopes.named}): while it
     * runs it is listed with its name and age in {@link #report()} ({@code outstanding}), the
     * {@code senders} endpoint and the shutdown log; its error's log line names it as well as the
     * scope. Otherwise as {@link #spawn(Sender)}.
     *
     * @param work     the sender to connect and start now, on this thread
     * @param workName what to call it in reports and logs, e.g. {@code "send-audit-event"}
     * @return {@code true} if the work was started; {@code false} if the scope is closed or full
     *         ({@code senders.scope.max-outstanding}), in which case {@code work} is never connected
     *         or started
     * @throws NullPointerException if an argument is null
     */
    public boolean spawn(Sender<?> work, String workName) {
        Objects.requireNonNull(workName, "workName");
        return spawnObserved(Scopes.named(observe(work, workName), workName));
    }

    /** The name goes on the outermost sender: the scope reads it only on the sender it is handed. */
    private ObservedWork<?> observe(Sender<?> work, @Nullable String workName) {
        Objects.requireNonNull(work, "work");
        return new ObservedWork<>(work, counters, context.capture(), observation.prepare(name, workName));
    }

    private boolean spawnObserved(Sender<?> observed) {
        counters.spawned.increment();              // before: the work may complete before spawn returns
        if (Scopes.spawn(observed, scope.getToken())) {
            return true;
        }
        counters.spawned.decrement();
        counters.refused.increment();              // the scope counts it too (refusedCount)
        return false;
    }

    /**
     * The scope itself.
     *
     * @return the application's {@code CountingScope}
     */
    public CountingScope scope() {
        return scope;
    }

    /**
     * The scope's name.
     *
     * @return {@code senders.scope.name}
     */
    public String name() {
        return name;
    }

    /**
     * Whether spawned work carries the spawning thread's context.
     *
     * @return {@code true} if the {@link SpawnContext} is not {@link SpawnContext#NONE}
     */
    public boolean capturesContext() {
        return context != SpawnContext.NONE;
    }

    /**
     * The most pieces of outstanding work {@link #report()} lists.
     *
     * @return {@code senders.scope.list-limit}
     */
    public int listLimit() {
        return listLimit;
    }

    /**
     * The scope's state and counters now, with its oldest outstanding work (at most
     * {@link #listLimit()} pieces) and a summary of all of it.
     *
     * @return a new report
     */
    public ScopeReport report() {
        return report(listLimit);
    }

    /**
     * {@link #report()} listing at most {@code limit} pieces of outstanding work.
     *
     * @param limit the most pieces of work to list
     * @return a new report
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    public ScopeReport report(int limit) {
        return report(OutstandingSummary.of(scope, limit));
    }

    /** The counters now with {@code outstanding} as the listed work and summary. */
    ScopeReport report(OutstandingSummary outstanding) {
        return ScopeReport.of(counters(), outstanding);
    }

    /**
     * The scope's state and counters now, without looking at its outstanding work: what a health
     * check or a meter reads ({@code outstanding} is empty and {@code summary} null). Costs a few
     * reads whatever the number outstanding.
     *
     * @return a report of the counters
     */
    public ScopeReport counters() {
        return new ScopeReport(name, scope.state(), scope.count(), counters.spawned.sum(), counters.completed.sum(),
                counters.failed.sum(), counters.stopped.sum(), counters.refused.sum(), scope.errorCount(),
                scope.refusedCount(), scope.refusedCount(RefusalReason.FULL),
                scope.maxOutstanding() == Long.MAX_VALUE ? null : scope.maxOutstanding(), List.of(), null);
    }

    @Override
    public String toString() {
        return "ScopeSpawner[" + counters() + "]";
    }
}
