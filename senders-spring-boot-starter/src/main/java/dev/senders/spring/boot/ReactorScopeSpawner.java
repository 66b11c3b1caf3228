package dev.senders.spring.boot;

import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spawns Reactor work ({@code Mono}, {@code Flux}, any {@code Publisher}) into the application
 * scope: {@link ScopeSpawner#spawn} of {@code ReactorSenders.fromPublisherIgnoreElements(work)},
 * which is what {@code ReactorScopes.spawn} spawns, plus the spawner's counting and context.
 *
 * <p>When the scope spawner carries context ({@link ScopeSpawner#capturesContext()}), the
 * publisher is subscribed with {@code contextCapture()}: at subscription (on the spawning thread,
 * inside the spawn, with the captured context installed) the values are written into the
 * subscription's Reactor {@code Context}, where {@code Mono.deferContextual}, {@code tap} and
 * {@code handle} see them and from which Reactor's automatic context propagation
 * ({@code spring.reactor.context-propagation=auto}, {@code Hooks.enableAutomaticContextPropagation()})
 * restores them as ThreadLocals on every thread the work hops to.
 *
 * <p>There is no per-spawn {@code Disposable}: the work ends by itself or by the scope's stop
 * request at shutdown. Work that must be cancelled on its own can be spawned with
 * {@code ReactorScopes.spawn(work, spawner.scope().getToken())} (the scope still joins, stops and
 * handles it; the spawner does not count it or carry context to it). Thread-safe.
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
        return spawner.spawn(sender(work));
    }

    /**
     * As {@link #spawn(Publisher)}, under {@code workName}: listed with its name and age while it
     * runs, and named in its error's log line ({@link ScopeSpawner#spawn(dev.senders.Sender, String)}).
     *
     * @param work     the publisher to subscribe to
     * @param workName what to call it in reports and logs, e.g. {@code "send-audit-event"}
     * @return {@code true} if subscribed; {@code false} if the scope is closed or full, in which case
     *         {@code work} is never subscribed
     * @throws NullPointerException if an argument is null
     */
    public boolean spawn(Publisher<?> work, String workName) {
        return spawner.spawn(sender(work), workName);
    }

    private Sender<Void> sender(Publisher<?> work) {
        Objects.requireNonNull(work, "work");
        return ReactorSenders.fromPublisherIgnoreElements(spawner.capturesContext() ? withContext(work) : work);
    }

    /**
     * The scope spawner this one spawns through.
     *
     * @return the scope spawner
     */
    public ScopeSpawner scopeSpawner() {
        return spawner;
    }

    private static Publisher<?> withContext(Publisher<?> work) {
        return work instanceof Mono<?> mono ? mono.contextCapture() : Flux.from(work).contextCapture();
    }
}
