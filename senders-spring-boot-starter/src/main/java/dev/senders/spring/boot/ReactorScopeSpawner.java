package dev.senders.spring.boot;

import dev.senders.reactor.ReactorScopes;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spawns Reactor work ({@code Mono}, {@code Flux}, any {@code Publisher}) into the application
 * scope: {@link ReactorScopes#spawn} with {@link ScopeSpawner#token()}.
 *
 * <p>When the scope spawner carries context ({@link ScopeSpawner#capturesContext()}), the
 * publisher is subscribed with {@code contextCapture()}: at subscription (on the spawning thread,
 * inside the spawn) the captured values are written into the subscription's Reactor
 * {@code Context}, where {@code Mono.deferContextual}, {@code tap} and {@code handle} see them and
 * from which Reactor's automatic context propagation ({@code spring.reactor.context-propagation=auto},
 * {@code Hooks.enableAutomaticContextPropagation()}) restores them as ThreadLocals on every thread
 * the work hops to. Thread-safe.
 */
public final class ReactorScopeSpawner {

    private final ScopeSpawner spawner;

    public ReactorScopeSpawner(ScopeSpawner spawner) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
    }

    /**
     * Subscribes to {@code work} now, on the calling thread, as work of the application scope; its
     * elements are discarded, its error goes to the scope's handler, shutdown waits for it (and
     * cancels it if it outlasts {@code senders.scope.shutdown.grace}).
     *
     * @return the {@code Disposable} of that one subscription; {@link ReactorScopes#REFUSED} (compare
     *         by identity) if the scope is closed, in which case {@code work} is never subscribed
     * @throws NullPointerException if {@code work} is null
     */
    public Disposable spawn(Publisher<?> work) {
        Objects.requireNonNull(work, "work");
        return ReactorScopes.spawn(spawner.capturesContext() ? withContext(work) : work, spawner.token());
    }

    /** Whether {@code d}, a result of {@link #spawn}, says the scope refused the work. */
    public static boolean refused(Disposable d) {
        return d == ReactorScopes.REFUSED;
    }

    /** The scope spawner this one spawns through. */
    public ScopeSpawner scopeSpawner() {
        return spawner;
    }

    private static Publisher<?> withContext(Publisher<?> work) {
        return work instanceof Mono<?> mono ? mono.contextCapture() : Flux.from(work).contextCapture();
    }
}
