package dev.senders.spring.boot;

import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.util.Objects;

/**
 * The application-wide scope as the starter manages it: spawn fire-and-forget work into it and
 * read its state. Inject it where work is spawned (or {@link ReactorScopeSpawner} /
 * {@link RxScopeSpawner} for Reactor and RxJava sources).
 *
 * <ul>
 * <li>{@link #spawn(Sender)} starts the work at once, on the calling thread, unless the scope is
 *     closed (the application is shutting down): then the work never starts and it returns
 *     {@code false}. Shutdown waits for spawned work (see {@link ScopeShutdown}).
 * <li>An error of spawned work goes to the scope's error handler: with the starter's scope, one
 *     {@code ERROR} line per failure, through SLF4J, naming the scope.
 * <li>The work's connect, start and completion run with the spawning thread's context installed
 *     ({@link SpawnContext}).
 * <li>{@link #token()} associates the same way for the other algorithms
 *     ({@code Scopes.nest}, {@code Scopes.spawnFuture}, {@code ReactorScopes.nest}, ...). Work
 *     associated through {@code scope().getToken()} directly is joined, stopped and its errors
 *     handled the same, but is not counted in {@link #report()}'s spawned, completed, stopped and
 *     refused, and does not see the spawning thread's context.
 * </ul>
 * Thread-safe.
 */
public final class ScopeSpawner {

    private final CountingScope scope;
    private final String name;
    private final InstrumentedToken token;
    private final boolean capturesContext;

    /**
     * @param scope   the application's scope
     * @param name    its name, for logs, metrics and reports
     * @param context what spawned work carries from the spawning thread ({@link SpawnContext#NONE}
     *                for nothing)
     */
    public ScopeSpawner(CountingScope scope, String name, SpawnContext context) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.name = Objects.requireNonNull(name, "name");
        this.token = new InstrumentedToken(scope.getToken(), Objects.requireNonNull(context, "context"));
        this.capturesContext = context != SpawnContext.NONE;
    }

    /**
     * Spawns {@code work} into the scope: {@code Scopes.spawn(work, token())}.
     *
     * @return {@code true} if the work was started; {@code false} if the scope is closed, in which
     *         case {@code work} is never connected or started
     * @throws NullPointerException if {@code work} is null
     */
    public boolean spawn(Sender<?> work) {
        return Scopes.spawn(Objects.requireNonNull(work, "work"), token);
    }

    /** The token that associates work with the scope, counted and carrying the spawning thread's context. */
    public AsyncScopeToken token() {
        return token;
    }

    /** The scope itself. */
    public CountingScope scope() {
        return scope;
    }

    /** The scope's name ({@code senders.scope.name}). */
    public String name() {
        return name;
    }

    /** Whether spawned work carries the spawning thread's context (a {@link SpawnContext} other than NONE). */
    public boolean capturesContext() {
        return capturesContext;
    }

    /** The scope's state and counters now. */
    public ScopeReport report() {
        return new ScopeReport(name, scope.state(), scope.count(), token.spawned.sum(), token.completed.sum(),
                scope.errorCount(), token.stopped.sum(), token.refused.sum());
    }

    @Override
    public String toString() {
        return "ScopeSpawner[" + report() + "]";
    }
}
