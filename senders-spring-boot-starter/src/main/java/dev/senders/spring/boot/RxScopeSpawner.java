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
 * Spawns RxJava 3 work into the application scope: {@code RxScopes.spawn} with the scope spawner's
 * {@link WorkKind#SPAWNED} token ({@link ScopeSpawner#token(WorkKind)}), so the work is counted
 * and decorated as all spawned work is and takes the adapter's own spawn path. Each method
 * subscribes now, on the calling thread; values and elements are discarded, an error goes to the
 * scope's handler (a {@code CancellationException} counts as stopped), and shutdown waits for the
 * work (and disposes it if it outlasts {@code senders.scope.shutdown.grace}). Each returns
 * {@code true} if subscribed, {@code false} if the scope is closed or full, in which case the
 * source is never subscribed. The overloads taking a {@code workName} spawn the work under that
 * name: listed with its name and age while it runs, named in its error's log line, and observed.
 *
 * <p>RxJava has no context of its own: the decoration (the spawning thread's context) is installed
 * around the subscription and the completion signals; a source that moves to another scheduler
 * needs that scheduler's executor to propagate context itself. There is no per-spawn
 * {@code Disposable} (see {@link ReactorScopeSpawner} for the alternative). Every method throws
 * {@link NullPointerException} if the source (or the name) is null. Thread-safe.
 */
public final class RxScopeSpawner {

    private final ScopeSpawner spawner;

    /**
     * An RxJava spawner over {@code spawner}.
     *
     * @param spawner the application scope's spawner
     */
    public RxScopeSpawner(ScopeSpawner spawner) {
        this.spawner = Objects.requireNonNull(spawner, "spawner");
    }

    /**
     * Spawns a {@code Completable}; see the class comment.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Completable work) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED)));
    }

    /**
     * Spawns a {@code Single}; its value is discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Single<?> work) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED)));
    }

    /**
     * Spawns a {@code Maybe}; its value, if any, is discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Maybe<?> work) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED)));
    }

    /**
     * Spawns a {@code Flowable}, requesting everything; elements are discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Flowable<?> work) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED)));
    }

    /**
     * Spawns an {@code Observable}; elements are discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Observable<?> work) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED)));
    }

    /**
     * Spawns a {@code Completable} under {@code workName}.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Completable work, String workName) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED), workName));
    }

    /**
     * Spawns a {@code Single} under {@code workName}; its value is discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Single<?> work, String workName) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED), workName));
    }

    /**
     * Spawns a {@code Maybe} under {@code workName}; its value, if any, is discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Maybe<?> work, String workName) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED), workName));
    }

    /**
     * Spawns a {@code Flowable} under {@code workName}, requesting everything; elements are discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Flowable<?> work, String workName) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED), workName));
    }

    /**
     * Spawns an {@code Observable} under {@code workName}; elements are discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed or full
     */
    public boolean spawn(Observable<?> work, String workName) {
        return started(RxScopes.spawn(work, spawner.token(WorkKind.SPAWNED), workName));
    }

    /**
     * The scope spawner this one spawns through.
     *
     * @return the scope spawner
     */
    public ScopeSpawner scopeSpawner() {
        return spawner;
    }

    private static boolean started(Disposable d) {
        return d != RxScopes.REFUSED;
    }
}
