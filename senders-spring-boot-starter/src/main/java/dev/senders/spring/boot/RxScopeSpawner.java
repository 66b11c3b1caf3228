package dev.senders.spring.boot;

import dev.senders.rxjava3.RxScopes;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.Objects;

/**
 * Spawns RxJava 3 work into the application scope: {@code RxScopes.spawn} with
 * {@link ScopeSpawner#token()}. Each method subscribes now, on the calling thread; values and
 * elements are discarded, an error goes to the scope's handler, and shutdown waits for the work
 * (and disposes it if it outlasts {@code senders.scope.shutdown.grace}). The result is the
 * {@code Disposable} of that one subscription, or {@link RxScopes#REFUSED} (compare by identity)
 * if the scope is closed, in which case the source is never subscribed.
 *
 * <p>RxJava has no context of its own: the spawning thread's context is installed around the
 * subscription and the completion signals; a source that moves to another scheduler needs that
 * scheduler's executor to propagate context itself. Thread-safe.
 *
 * @throws NullPointerException from every method if the source is null
 */
public final class RxScopeSpawner {

    private final ScopeSpawner spawner;

    public RxScopeSpawner(ScopeSpawner spawner) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
    }

    /** Spawns a {@code Completable}; see the class comment. */
    public Disposable spawn(Completable work) {
        return RxScopes.spawn(Objects.requireNonNull(work, "work"), spawner.token());
    }

    /** Spawns a {@code Single}; its value is discarded. */
    public Disposable spawn(Single<?> work) {
        return RxScopes.spawn(Objects.requireNonNull(work, "work"), spawner.token());
    }

    /** Spawns a {@code Maybe}; its value, if any, is discarded. */
    public Disposable spawn(Maybe<?> work) {
        return RxScopes.spawn(Objects.requireNonNull(work, "work"), spawner.token());
    }

    /** Spawns a {@code Flowable}, requesting everything; elements are discarded. */
    public Disposable spawn(Flowable<?> work) {
        return RxScopes.spawn(Objects.requireNonNull(work, "work"), spawner.token());
    }

    /** Spawns an {@code Observable}; elements are discarded. */
    public Disposable spawn(Observable<?> work) {
        return RxScopes.spawn(Objects.requireNonNull(work, "work"), spawner.token());
    }

    /** Whether {@code d}, a result of {@code spawn}, says the scope refused the work. */
    public static boolean refused(Disposable d) {
        return d == RxScopes.REFUSED;
    }

    /** The scope spawner this one spawns through. */
    public ScopeSpawner scopeSpawner() {
        return spawner;
    }
}
