package dev.senders.spring.boot;

import dev.senders.reactor.ReactorScopes;
import java.util.Objects;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Spawns Reactor work ({@code Mono}, {@code Flux}, any {@code Publisher}) into the application
 * scope: {@code ReactorScopes.spawn} with the scope spawner's {@link WorkKind#SPAWNED} token
 * ({@link ScopeSpawner#token(WorkKind)}), so the work is counted and decorated as all spawned
 * work is and takes the adapter's own spawn path.
 *
 * <p>When the scope spawner decorates ({@link ScopeSpawner#decorates()}) and Micrometer's
 * context-propagation library is present, the publisher is subscribed with what Reactor's
 * {@code contextCapture()} does: at subscription (on the spawning thread, inside the spawn, with
 * the decoration installed) the value of every accessor registered with the global
 * {@code ContextRegistry} that has one is written into the subscription's Reactor
 * {@code Context} ({@code ReactorContextCapture}), where {@code Mono.deferContextual}, {@code tap}
 * and {@code handle} see them and from which Reactor's automatic context propagation
 * ({@code spring.reactor.context-propagation=auto}, {@code Hooks.enableAutomaticContextPropagation()})
 * restores them as ThreadLocals on every thread the work hops to.
 *
 * <p>There is no per-spawn {@code Disposable}: the work ends by itself or by the scope's stop
 * request at shutdown. Work that must be cancelled on its own can be spawned with
 * {@code ReactorScopes.spawn(work, spawner.token(WorkKind.SPAWNED))}, which returns it (and is
 * counted and decorated alike). Thread-safe.
 */
public final class ReactorScopeSpawner {

    private final ScopeSpawner spawner;

    /**
     * A Reactor spawner over {@code spawner}.
     *
     * @param spawner the application scope's spawner
     */
    public ReactorScopeSpawner(ScopeSpawner spawner) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
    }

    /**
     * Subscribes to {@code work} now, on the calling thread, as work of the application scope,
     * requesting everything and discarding the elements. Its error goes to the scope's handler (an
     * upstream {@code CancellationException} counts as stopped); shutdown waits for it and cancels
     * it if it outlasts {@code senders.scope.shutdown.grace}.
     *
     * @param work the publisher to subscribe to
     * @return {@code true} if subscribed; {@code false} if the scope is closed or full, in which case
     *         {@code work} is never subscribed
     * @throws NullPointerException if {@code work} is null
     */
    public boolean spawn(Publisher<?> work) {
        return ReactorScopes.spawn(withContext(work), spawner.token(WorkKind.SPAWNED)) != ReactorScopes.REFUSED;
    }

    /**
     * As {@link #spawn(Publisher)}, under {@code workName}: listed with its name and age while it
     * runs, named in its error's log line, and observed ({@link ObservationSpawnDecorator}).
     *
     * @param work     the publisher to subscribe to
     * @param workName what to call it in reports and logs, e.g. {@code "send-audit-event"}
     * @return {@code true} if subscribed; {@code false} if the scope is closed or full, in which case
     *         {@code work} is never subscribed
     * @throws NullPointerException if an argument is null
     */
    public boolean spawn(Publisher<?> work, String workName) {
        return ReactorScopes.spawn(withContext(work), spawner.token(WorkKind.SPAWNED), workName)
                != ReactorScopes.REFUSED;
    }

    /**
     * The scope spawner this one spawns through.
     *
     * @return the scope spawner
     */
    public ScopeSpawner scopeSpawner() {
        return spawner;
    }

    private Publisher<?> withContext(Publisher<?> work) {
        Objects.requireNonNull(work, "work");
        Function<Context, Context> capture = ReactorContextCapture.CAPTURE;
        if (!spawner.decorates() || capture == null) {
            return work;
        }
        return work instanceof Mono<?> mono ? mono.contextWrite(capture) : Flux.from(work).contextWrite(capture);
    }
}
