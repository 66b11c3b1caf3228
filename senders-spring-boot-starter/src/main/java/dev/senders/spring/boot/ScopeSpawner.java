package dev.senders.spring.boot;

import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.RefusalReason;
import dev.senders.scope.ScopeExecutor;
import dev.senders.scope.Scopes;
import dev.senders.scope.SpawnDecorator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * The application-wide scope as the starter manages it: spawn fire-and-forget work into it and
 * read its state. Inject it where sender work is spawned, or {@link ReactorScopeSpawner} /
 * {@link RxScopeSpawner} for Reactor and RxJava sources.
 *
 * <ul>
 * <li>{@link #spawn(Sender)} is {@code Scopes.spawn} with the spawner's {@link #token(WorkKind)}:
 *     the work starts at once, on the calling thread, unless the scope is closed (the application
 *     is shutting down) or full ({@code senders.scope.max-outstanding}): then it never starts and
 *     {@code spawn} returns {@code false}. Shutdown waits for spawned work ({@link ScopeShutdown}),
 *     and its stop request reaches it.
 * <li>An error of spawned work goes to the scope's error handler, once, and is counted by the
 *     scope: with the starter's scope, one {@code ERROR} line through SLF4J naming the scope
 *     ({@link SpawnErrorLogger}); with an application's own {@code CountingScope}, its handler.
 * <li>Spawned work is decorated ({@link SpawnDecorator}): the starter's decorators, in order, carry
 *     the spawning thread's MDC and registered context ({@link MdcSpawnDecorator},
 *     {@link ContextSnapshotSpawnDecorator}) and make named work a Micrometer {@code Observation}
 *     ({@link ObservationSpawnDecorator}); an application adds its own as a {@code SpawnDecorator}
 *     bean. The decoration is installed around the work's connect, start and completion: the
 *     error's log line carries the request's MDC.
 * <li>{@link #spawn(Sender, String)} names the work: the report lists it while it runs (name, age)
 *     and its error's log line names it.
 * <li>{@link #report()} counts what was handed to the scope through the starter, by
 *     {@link WorkKind} (the fire-and-forget subscriptions that the hooks installed for this scope
 *     found are the {@link WorkKind#SUBSCRIPTION} kind), and the scope's own counts of all its work
 *     ({@link ScopeReport} names which is which and how they relate). Work spawned with {@code scope().getToken()} directly is joined, stopped and its
 *     errors handled and counted by the scope just the same (in {@code active}, {@code scopeFailed},
 *     {@code scopeRefused}, and listed if named), but in no kind's counts, and is not decorated.
 * </ul>
 * Every route into the scope (this spawner, the Reactor and RxJava spawners through
 * {@code ReactorScopes.spawn} and {@code RxScopes.spawn}, tracked executors through
 * {@link #taskSpawner()}) uses the token of its kind, so all of them are counted and decorated
 * alike. Thread-safe; one per application scope.
 */
public final class ScopeSpawner {

    private final CountingScope scope;
    private final String name;
    private final SpawnDecorator decorator;
    private final int listLimit;
    private final WorkCounters[] counters = new WorkCounters[WorkKind.values().length];
    private final AsyncScopeToken[] tokens = new AsyncScopeToken[WorkKind.values().length];
    /** Whether {@link WorkKind#SUBSCRIPTION}'s token was handed out: then reports show that kind. */
    private volatile boolean subscriptionsInUse;
    /**
     * The fire-and-forget trackers installed for this scope so far, kept after they close (at the
     * end of the shutdown) so that the subscriptions kind's counts never go back.
     */
    private final CopyOnWriteArrayList<FireAndForgetTracker> trackers = new CopyOnWriteArrayList<>();

    /**
     * A spawner whose reports list at most {@link OutstandingSummary#DEFAULT_LIMIT} pieces of work.
     *
     * @param scope     the application's scope
     * @param name      its name, for logs, metrics, observations and reports
     * @param decorator how spawned work is decorated ({@link SpawnDecorator#NONE} for not at all)
     */
    public ScopeSpawner(CountingScope scope, String name, SpawnDecorator decorator) {
        this(scope, name, decorator, OutstandingSummary.DEFAULT_LIMIT);
    }

    /**
     * @param scope     the application's scope
     * @param name      its name, for logs, metrics, observations and reports
     * @param decorator how spawned work is decorated ({@link SpawnDecorator#NONE} for not at all;
     *                  {@link SpawnDecorator#compose} for several)
     * @param listLimit the most pieces of outstanding work {@link #report()} lists
     *                  ({@code senders.scope.list-limit})
     * @throws IllegalArgumentException if {@code listLimit} is negative
     */
    public ScopeSpawner(CountingScope scope, String name, SpawnDecorator decorator, int listLimit) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.name = Objects.requireNonNull(name, "name");
        this.decorator = Objects.requireNonNull(decorator, "decorator");
        this.listLimit = OutstandingSummary.checkLimit(listLimit);
        AsyncScopeToken token = scope.getToken();
        for (WorkKind kind : WorkKind.values()) {
            WorkCounters c = new WorkCounters();
            counters[kind.ordinal()] = c;
            tokens[kind.ordinal()] = SpawnDecorator.compose(List.of(c, decorator)).token(token, name);
        }
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
        return Scopes.spawn(Objects.requireNonNull(work, "work"), tokens[WorkKind.SPAWNED.ordinal()]);
    }

    /**
     * Spawns {@code work} into the scope under {@code workName} ({@code Scopes.named}): while it
     * runs it is listed with its name and age in {@link #report()} ({@code outstanding}), the
     * {@code senders} endpoint and the shutdown log; its error's log line names it as well as the
     * scope, and the decorators are told the name. Otherwise as {@link #spawn(Sender)}.
     *
     * @param work     the sender to connect and start now, on this thread
     * @param workName what to call it in reports and logs, e.g. {@code "send-audit-event"}
     * @return {@code true} if the work was started; {@code false} if the scope is closed or full
     *         ({@code senders.scope.max-outstanding}), in which case {@code work} is never connected
     *         or started
     * @throws NullPointerException if an argument is null
     */
    public boolean spawn(Sender<?> work, String workName) {
        return Scopes.spawn(Scopes.named(work, workName), tokens[WorkKind.SPAWNED.ordinal()]);
    }

    /**
     * The token through which work of {@code kind} enters the scope: it associates with the scope
     * (same stop, same error handling) and counts and decorates the work it associates. Spawn
     * with it through any route ({@code Scopes.spawn}, {@code ReactorScopes.spawn},
     * {@code RxScopes.spawn}, a {@link ScopeExecutor}); name work with {@code Scopes.named} or the
     * adapters' overloads taking a name. Asking for {@link WorkKind#SUBSCRIPTION}'s token puts that
     * kind in the reports.
     *
     * @param kind the kind of work spawned with it
     * @return the kind's token (the same one each time)
     */
    public AsyncScopeToken token(WorkKind kind) {
        if (kind == WorkKind.SUBSCRIPTION && !subscriptionsInUse) {
            subscriptionsInUse = true;
        }
        return tokens[kind.ordinal()];
    }

    /**
     * How a tracked executor spawns its tasks ({@code ScopeExecutor.of(executor, scope(), taskSpawner())}):
     * through the {@link WorkKind#EXECUTOR_TASK} token, under the task's name when it has one.
     *
     * @return the executor tasks' spawner
     */
    public ScopeExecutor.Spawner taskSpawner() {
        AsyncScopeToken token = tokens[WorkKind.EXECUTOR_TASK.ordinal()];
        return (task, taskName) -> Scopes.spawn(taskName == null ? task : Scopes.named(task, taskName), token);
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
     * Whether spawned work is decorated (carries context, is observed).
     *
     * @return {@code true} if the decorator is not {@link SpawnDecorator#NONE}
     */
    public boolean decorates() {
        return decorator != SpawnDecorator.NONE;
    }

    /**
     * The decorator of spawned work (the starter's and the application's {@code SpawnDecorator}
     * beans, composed in order).
     *
     * @return the decorator, {@link SpawnDecorator#NONE} for none
     */
    public SpawnDecorator decorator() {
        return decorator;
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
        return new ScopeReport(name, scope.state(), scope.count(), counts(WorkKind.SPAWNED),
                counts(WorkKind.EXECUTOR_TASK), subscriptions(), scope.errorCount(), scope.refusedCount(),
                scope.refusedCount(RefusalReason.FULL),
                scope.maxOutstanding() == Long.MAX_VALUE ? null : scope.maxOutstanding(), List.of(), null);
    }

    private ScopeReport.Counts counts(WorkKind kind) {
        return counters[kind.ordinal()].read();
    }

    /**
     * The {@link WorkKind#SUBSCRIPTION} kind: what went through its token, plus the subscriptions
     * the fire-and-forget trackers installed for this scope found (the rule is in
     * {@link ScopeReport}'s class comment); {@code null} while neither is in use.
     */
    private ScopeReport.@Nullable Counts subscriptions() {
        for (FireAndForgetTracker t : FireAndForgetTracker.installed()) {
            if (t.scope() == scope) {
                trackers.addIfAbsent(t);
            }
        }
        if (!subscriptionsInUse && trackers.isEmpty()) {
            return null;
        }
        ScopeReport.Counts c = counts(WorkKind.SUBSCRIPTION);
        long started = c.started();
        long completed = c.completed();
        long refused = c.refused();
        for (FireAndForgetTracker t : trackers) {
            long found = t.foundCount();             // found first: what ended is never counted before it was found
            started += found;
            completed += Math.max(0, found - t.activeCount());
            refused += t.untrackedCount();
        }
        return new ScopeReport.Counts(started, completed, c.failed(), c.stopped(), refused);
    }

    @Override
    public String toString() {
        return "ScopeSpawner[" + counters() + "]";
    }
}
