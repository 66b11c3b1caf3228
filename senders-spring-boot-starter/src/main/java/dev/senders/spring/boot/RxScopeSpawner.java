package dev.senders.spring.boot;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import java.util.Objects;

/**
 * Spawns RxJava 3 work into the application scope: {@link ScopeSpawner#spawn} of the source's
 * sender ({@code RxSenders.fromCompletable}, {@code fromSingle}, ..., the sources
 * {@code RxScopes.spawn} spawns), plus the spawner's counting and context. Each method subscribes
 * now, on the calling thread; values and elements are discarded, an error goes to the scope's
 * handler (a {@code CancellationException} counts as stopped), and shutdown waits for the work
 * (and disposes it if it outlasts {@code senders.scope.shutdown.grace}). Each returns {@code true}
 * if subscribed, {@code false} if the scope is closed or full, in which case the source is never
 * subscribed. The overloads taking a {@code workName} spawn the work under that name
 * ({@link ScopeSpawner#spawn(dev.senders.Sender, String)}): listed with its name and age while
 * it runs, and named in its error's log line.
 *
 * <p>RxJava has no context of its own: the spawning thread's context is installed around the
 * subscription and the completion signals; a source that moves to another scheduler needs that
 * scheduler's executor to propagate context itself. There is no per-spawn {@code Disposable}
 * (see {@link ReactorScopeSpawner} for the alternative). Every method throws
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
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    public boolean spawn(Completable work) {
        return spawner.spawn(RxSenders.fromCompletable(work));
    }

    /**
     * Spawns a {@code Single}; its value is discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    @SuppressWarnings("unchecked")
    public boolean spawn(Single<?> work) {
        return spawner.spawn(RxSenders.fromSingle((Single<Object>) work));
    }

    /**
     * Spawns a {@code Maybe}; its value, if any, is discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    @SuppressWarnings("unchecked")
    public boolean spawn(Maybe<?> work) {
        return spawner.spawn(RxSenders.fromMaybe((Maybe<Object>) work));
    }

    /**
     * Spawns a {@code Flowable}, requesting everything; elements are discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    public boolean spawn(Flowable<?> work) {
        return spawner.spawn(RxSenders.fromFlowableIgnoreElements(work));
    }

    /**
     * Spawns an {@code Observable}; elements are discarded.
     *
     * @param work the source to subscribe to
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    public boolean spawn(Observable<?> work) {
        return spawner.spawn(RxSenders.fromObservableIgnoreElements(work));
    }

    /**
     * Spawns a {@code Completable} under {@code workName}.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    public boolean spawn(Completable work, String workName) {
        return spawner.spawn(RxSenders.fromCompletable(work), workName);
    }

    /**
     * Spawns a {@code Single} under {@code workName}; its value is discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    @SuppressWarnings("unchecked")
    public boolean spawn(Single<?> work, String workName) {
        return spawner.spawn(RxSenders.fromSingle((Single<Object>) work), workName);
    }

    /**
     * Spawns a {@code Maybe} under {@code workName}; its value, if any, is discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    @SuppressWarnings("unchecked")
    public boolean spawn(Maybe<?> work, String workName) {
        return spawner.spawn(RxSenders.fromMaybe((Maybe<Object>) work), workName);
    }

    /**
     * Spawns a {@code Flowable} under {@code workName}, requesting everything; elements are discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    public boolean spawn(Flowable<?> work, String workName) {
        return spawner.spawn(RxSenders.fromFlowableIgnoreElements(work), workName);
    }

    /**
     * Spawns an {@code Observable} under {@code workName}; elements are discarded.
     *
     * @param work     the source to subscribe to
     * @param workName what to call it in reports and logs
     * @return {@code true} if subscribed, {@code false} if the scope is closed
     */
    public boolean spawn(Observable<?> work, String workName) {
        return spawner.spawn(RxSenders.fromObservableIgnoreElements(work), workName);
    }

    /**
     * The scope spawner this one spawns through.
     *
     * @return the scope spawner
     */
    public ScopeSpawner scopeSpawner() {
        return spawner;
    }
}
