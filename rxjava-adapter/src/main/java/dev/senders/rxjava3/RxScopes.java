package dev.senders.rxjava3;

import dev.senders.scope.internal.RefusedHandle;
import dev.senders.scope.internal.SpawnedWork;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.Objects;

/**
 * Async scopes (P3149, {@code dev.senders.scope}) for RxJava code: spawn an RxJava source into a
 * scope and get a {@link Disposable} for that one operation, or view a {@link CountingScope} as a
 * {@code DisposableContainer} ({@link ScopeContainer}) in place of a {@code CompositeDisposable}.
 *
 * <p>{@code spawn} is {@link Scopes#spawn(dev.senders.Sender, AsyncScopeToken)} of the source:
 * <ul>
 * <li>If {@code token.tryAssociate()} fails (the scope is closed or joined), the source is never
 *     subscribed and the result is an already-disposed {@code Disposable} ({@code isDisposed()}
 *     is {@code true}) — check it if you need to know.
 * <li>Otherwise the source is subscribed at once, on the calling thread, and the scope counts the
 *     work until it ends: the source terminates (success, completion, error), or the returned
 *     {@code Disposable} is disposed, or stop is requested on the work's token — for a
 *     {@link CountingScope}, its {@code requestStop()}. Disposing (or stopping) disposes/cancels
 *     the upstream first and then releases the association, exactly once.
 * <li>Values and elements are discarded (a {@code Flowable} is requested unbounded). An error goes
 *     where {@code Scopes.spawn}'s errors go: the scope's error handler, else
 *     {@link dev.senders.Hooks#onErrorDropped}; it is counted by the scope's {@code errorCount()}
 *     and handled before the association is released. A {@code CancellationException} from the
 *     source counts as stopped, not as an error. An error after {@code dispose()} goes to
 *     {@code RxJavaPlugins.onError}, as for RxJava's own lambda observers.
 * <li>{@code isDisposed()} is {@code true} once the work has ended for any reason (as for
 *     the {@code Disposable} of {@code subscribe(Consumer...)}).
 * </ul>
 * The per-spawn allocation is one object: the observer, the association with the scope,
 * the registration on the scope's stop token and the {@code Disposable} in one (a token whose
 * {@code wrap} adds something to the work, as for named or tracked work, goes through
 * {@code Scopes.spawn} and its receiver; a token whose only decorator is a
 * {@code SpawnListener} does not: the listener is told directly).
 */
public final class RxScopes {

    /**
     * What {@code spawn} returns, and only then, when the scope refused the work (it was closed):
     * an always-disposed {@code Disposable}. Compare by identity, {@code d == RxScopes.REFUSED}, to
     * tell a refusal from work that simply finished before {@code spawn} returned.
     */
    public static final Disposable REFUSED = new Refused();

    /** {@link #REFUSED}'s class: the shared always-disposed handle as a {@code Disposable}. */
    private static final class Refused extends RefusedHandle implements Disposable {
        Refused() {
            super("RxScopes.REFUSED");
        }
    }

    private RxScopes() {}

    /**
     * Subscribes {@code source} as work associated with the token's scope; see the class comment.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Completable source, AsyncScopeToken token) {
        return spawn(Objects.requireNonNull(source, "source"), RxToSpawnedWork.COMPLETABLE, token);
    }

    /**
     * As {@link #spawn(Completable, AsyncScopeToken)}; the value is discarded.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     */
    public static Disposable spawn(Single<?> source, AsyncScopeToken token) {
        return spawn(Objects.requireNonNull(source, "source"), RxToSpawnedWork.SINGLE, token);
    }

    /**
     * As {@link #spawn(Completable, AsyncScopeToken)}; the value (if any) is discarded.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     */
    public static Disposable spawn(Maybe<?> source, AsyncScopeToken token) {
        return spawn(Objects.requireNonNull(source, "source"), RxToSpawnedWork.MAYBE, token);
    }

    /**
     * As {@link #spawn(Completable, AsyncScopeToken)}: requests {@code Long.MAX_VALUE} and discards
     * the elements; the work ends with {@code onComplete}/{@code onError} or a cancel.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     */
    public static Disposable spawn(Flowable<?> source, AsyncScopeToken token) {
        return spawn(Objects.requireNonNull(source, "source"), RxToSpawnedWork.FLOWABLE, token);
    }

    /**
     * As {@link #spawn(Completable, AsyncScopeToken)}: elements are discarded.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     */
    public static Disposable spawn(Observable<?> source, AsyncScopeToken token) {
        return spawn(Objects.requireNonNull(source, "source"), RxToSpawnedWork.OBSERVABLE, token);
    }

    /**
     * As {@link #spawn(Completable, AsyncScopeToken)}, under {@code name} ({@code Scopes.named}): the scope
     * lists the work with its name and age while it runs. Named work takes the general path
     * (through {@code Scopes.spawn}), so a token that decorates its work decorates this work too.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @param name what the scope calls the work
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Completable source, AsyncScopeToken token, String name) {
        return spawnNamed(Objects.requireNonNull(source, "source"), RxToSpawnedWork.COMPLETABLE, token, name);
    }

    /**
     * As {@link #spawn(Single, AsyncScopeToken)}, under {@code name} ({@code Scopes.named}): the scope
     * lists the work with its name and age while it runs; the value is discarded. Named work takes the general path
     * (through {@code Scopes.spawn}), so a token that decorates its work decorates this work too.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @param name what the scope calls the work
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Single<?> source, AsyncScopeToken token, String name) {
        return spawnNamed(Objects.requireNonNull(source, "source"), RxToSpawnedWork.SINGLE, token, name);
    }

    /**
     * As {@link #spawn(Maybe, AsyncScopeToken)}, under {@code name} ({@code Scopes.named}): the scope
     * lists the work with its name and age while it runs; the value (if any) is discarded. Named work takes the general path
     * (through {@code Scopes.spawn}), so a token that decorates its work decorates this work too.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @param name what the scope calls the work
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Maybe<?> source, AsyncScopeToken token, String name) {
        return spawnNamed(Objects.requireNonNull(source, "source"), RxToSpawnedWork.MAYBE, token, name);
    }

    /**
     * As {@link #spawn(Flowable, AsyncScopeToken)}, under {@code name} ({@code Scopes.named}): the scope
     * lists the work with its name and age while it runs; requests {@code Long.MAX_VALUE} and discards the elements. Named work takes the general path
     * (through {@code Scopes.spawn}), so a token that decorates its work decorates this work too.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @param name what the scope calls the work
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Flowable<?> source, AsyncScopeToken token, String name) {
        return spawnNamed(Objects.requireNonNull(source, "source"), RxToSpawnedWork.FLOWABLE, token, name);
    }

    /**
     * As {@link #spawn(Observable, AsyncScopeToken)}, under {@code name} ({@code Scopes.named}): the scope
     * lists the work with its name and age while it runs; elements are discarded. Named work takes the general path
     * (through {@code Scopes.spawn}), so a token that decorates its work decorates this work too.
     *
     * @param source the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @param name what the scope calls the work
     * @return a {@code Disposable} that stops the work; {@link #REFUSED} if the scope was closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Observable<?> source, AsyncScopeToken token, String name) {
        return spawnNamed(Objects.requireNonNull(source, "source"), RxToSpawnedWork.OBSERVABLE, token, name);
    }

    private static Disposable spawnNamed(Object source, int kind, AsyncScopeToken token, String name) {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(name, "name");
        RxToSpawnedWork work = new RxToSpawnedWork(source, kind);
        return work.spawnThroughScopes(token, name) ? work : REFUSED;
    }

    private static Disposable spawn(Object source, int kind, AsyncScopeToken token) {
        Objects.requireNonNull(token, "token");
        if (SpawnedWork.directPath(token)) {
            if (!token.tryAssociate()) {
                return REFUSED;
            }
            RxToSpawnedWork work;
            try {
                work = new RxToSpawnedWork(source, kind);
            } catch (Throwable t) { // an OutOfMemoryError: the association must not stay behind
                token.dissociate();
                throw t;
            }
            work.startDirect(token);
            return work;
        }
        RxToSpawnedWork work = new RxToSpawnedWork(source, kind);
        return work.spawnThroughScopes(token) ? work : REFUSED;
    }

    /**
     * A new {@link ScopeContainer} over {@code scope}: a {@code DisposableContainer} and
     * {@code Disposable} with {@code CompositeDisposable}'s meaning, whose held disposables are
     * associated with the scope (so {@code scope.join()} waits for them), and whose
     * {@code dispose()} closes the scope and requests stop on it. Several containers over one
     * scope each hold their own disposables; disposing one closes the shared scope.
     *
     * @param scope the scope the container associates with, closes and stops
     * @return a new container over {@code scope}
     * @throws NullPointerException if {@code scope} is null
     */
    public static ScopeContainer asContainer(CountingScope scope) {
        return new ScopeContainer(Objects.requireNonNull(scope, "scope")).register();
    }

    /**
     * {@link #asContainer(CountingScope)} holding {@code initial} from the start, as
     * {@code new CompositeDisposable(d...)} does (if the scope is closed or stopped, they are
     * disposed at once).
     *
     * @param scope the scope the container associates with, closes and stops
     * @param initial the members held from the start
     * @return a new container view of {@code scope}
     * @throws NullPointerException if an argument or an element is null (then nothing is held)
     */
    public static ScopeContainer asContainer(CountingScope scope, Disposable... initial) {
        Objects.requireNonNull(initial, "disposables is null");
        ScopeContainer c = asContainer(scope);
        c.addAll(initial);
        return c;
    }

    /**
     * {@link #asContainer(CountingScope)} holding {@code initial} from the start, as
     * {@code new CompositeDisposable(Iterable)} does.
     *
     * @param scope the scope the container associates with, closes and stops
     * @param initial the members held from the start
     * @return a new container view of {@code scope}
     * @throws NullPointerException if an argument or an element is null (then nothing is held)
     */
    public static ScopeContainer asContainer(CountingScope scope, Iterable<? extends Disposable> initial) {
        Objects.requireNonNull(initial, "disposables is null");
        java.util.List<Disposable> list = new java.util.ArrayList<>();
        for (Disposable d : initial) {
            list.add(Objects.requireNonNull(d, "A Disposable item in the disposables sequence is null"));
        }
        return asContainer(scope, list.toArray(new Disposable[0]));
    }
}
