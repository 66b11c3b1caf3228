package dev.senders.rxjava3;

import dev.senders.Sender;
import dev.senders.scope.internal.ScopeMembers;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.disposables.DisposableContainer;
import io.reactivex.rxjava3.exceptions.CompositeException;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CountingScope} seen as an RxJava {@link DisposableContainer} and {@link Disposable}
 * ({@link RxScopes#asContainer}): a drop-in for {@code CompositeDisposable} whose held
 * {@code Disposable}s are associated work of the scope, so that {@code scope.join()} (or
 * {@link #join()}) completes once every one of them has been removed, deleted, disposed or has
 * released itself.
 *
 * <ul>
 * <li>{@link #add add(d)}: {@code tryAssociate()} and hold {@code d}; {@code true}. If the scope is
 *     closed (or this container disposed, or the scope's stop requested) {@code d} is disposed and
 *     the result is {@code false}, as with a disposed {@code CompositeDisposable}. Adding a held
 *     {@code d} again changes nothing and returns {@code true} (a set, like {@code CompositeDisposable}).
 * <li>{@link #remove remove(d)}: if held, forget it, dispose it, then dissociate; {@code true}.
 *     {@code CompositeDisposable.remove} disposes too.
 * <li>{@link #delete delete(d)}: if held, forget it and dissociate without disposing it; {@code true}.
 *     This is what RxJava's {@code subscribe(..., DisposableContainer)} observers call when they
 *     terminate or are disposed, so the lambda-subscribe overloads release the count on their own.
 * <li>{@link #dispose()}: close the scope (no new work, here or through its token), dispose every
 *     held {@code Disposable} (dissociating each), then request stop on the scope (which stops work
 *     {@linkplain RxScopes#spawn spawned} or nested into it). Idempotent. It does not wait: shut
 *     down with {@code dispose()} and then {@code syncWait(join())} (with a timeout if you like).
 * <li>{@link #clear()}: dispose every held {@code Disposable} (dissociating each) and stay usable,
 *     like {@code CompositeDisposable.clear()}; the scope stays open.
 * <li>{@link #addAll addAll(d...)}: adds each, like {@code CompositeDisposable.addAll}; once one is
 *     refused the rest are disposed and the result is {@code false}. A {@code null} element is
 *     rejected before anything is added. {@link #size()}: how many are held (0 once disposed).
 *     {@link RxScopes#asContainer(CountingScope, Disposable...)} starts with initial members, as
 *     {@code new CompositeDisposable(d...)} does.
 * <li>The scope's own {@code requestStop()} (from anyone) disposes the held {@code Disposable}s
 *     too, and every {@code add} after it disposes its argument and returns {@code false}: stop is
 *     sticky, as for all work associated with a {@code CountingScope}.
 * </ul>
 *
 * <p>Exceptions thrown by the held {@code Disposable}s' {@code dispose()} in {@code dispose()} and
 * {@code clear()} are collected and rethrown after all were disposed and dissociated, by
 * {@code CompositeDisposable}'s rule (RxJava's {@code ExceptionHelper.wrapOrThrow}): a single
 * {@code RuntimeException} or {@code Error} as is, a single checked exception wrapped in a
 * {@code RuntimeException}, several as one {@link CompositeException}. When the scope's
 * {@code requestStop()} disposes them, there is no caller to throw to: the exception goes to
 * {@code RxJavaPlugins.onError}. Fatal errors ({@code VirtualMachineError}, {@code LinkageError})
 * propagate at once. {@code null} arguments are rejected with {@code CompositeDisposable}'s
 * {@code NullPointerException}s.
 *
 * <p>All methods are thread-safe and may be called from any thread; {@code dispose} and
 * {@code clear} dispose on the calling thread (or, for the scope's {@code requestStop()}, on the
 * thread that requested stop).
 */
public final class ScopeContainer implements DisposableContainer, Disposable {
    /*
     * The members are held by ScopeMembers (shared with Reactor's
     * ReactorScopes.asComposite, so both views behave the same towards the scope): a
     * ConcurrentHashMap key set, O(1) expected add/remove, no lock on the
     * container (CompositeDisposable: an OpenHashSet behind synchronized); removal
     * from the map is the claim, so each association is released exactly once, and an add
     * racing dispose or the scope's stop cannot leave a member behind (see there).
     */

    private final ScopeMembers<Disposable> members;

    ScopeContainer(CountingScope scope) {
        this.members = new ScopeMembers<>(scope, Disposable::dispose, false, ScopeContainer::orphaned);
    }

    /** Registers the stop callback; separate from the constructor so that {@code this} is complete. */
    ScopeContainer register() {
        members.register();
        return this;
    }

    /** The scope's stop disposed the members: nobody to throw to, so failures go to RxJavaPlugins. */
    private static void orphaned(List<Throwable> failures) {
        RxJavaPlugins.onError(failures.size() == 1 ? failures.get(0) : new CompositeException(failures));
    }

    /**
     * The scope this container views.
     *
     * @return the scope this container views
     */
    public CountingScope scope() {
        return members.scope();
    }

    /**
     * The scope's {@link CountingScope#join() join()}: completes once all associated work has ended.
     *
     * @return a sender that completes once all work associated with the scope has ended
     */
    public Sender<Void> join() {
        return members.scope().join();
    }

    /**
     * Associates {@code d} with the scope and holds it.
     *
     * @return {@code true} if {@code d} is held (now or already); {@code false} if the scope is
     *     closed, this container is disposed or the scope's stop was requested, in which case
     *     {@code d} has been disposed
     * @throws NullPointerException if {@code d} is null
     */
    @Override
    public boolean add(Disposable d) {
        Objects.requireNonNull(d, "disposable is null");
        return members.add(d);
    }

    /**
     * Adds each of {@code ds} in turn, like {@code CompositeDisposable.addAll}: once one is
     * refused (see {@link #add}), the rest are disposed too.
     *
     * @param ds the disposables to hold
     * @return {@code true} if all are held
     * @throws NullPointerException if {@code ds} or an element is null (then nothing was added)
     */
    public boolean addAll(Disposable... ds) {
        Objects.requireNonNull(ds, "disposables is null");
        for (Disposable d : ds) {
            Objects.requireNonNull(d, "A Disposable in the disposables array is null");
        }
        return members.addAll(Arrays.asList(ds));
    }

    /**
     * Forgets {@code d}, disposes it and dissociates it from the scope, if it is held.
     *
     * @return {@code true} if {@code d} was held
     * @throws NullPointerException if {@code d} is null
     */
    @Override
    public boolean remove(Disposable d) {
        Objects.requireNonNull(d, "disposable is null");
        return members.forget(d, true);
    }

    /**
     * Forgets {@code d} and dissociates it from the scope without disposing it, if it is held.
     *
     * @return {@code true} if {@code d} was held
     * @throws NullPointerException if {@code d} is null
     */
    @Override
    public boolean delete(Disposable d) {
        Objects.requireNonNull(d, "disposable is null");
        return members.forget(d, false);
    }

    /**
     * Closes the scope, disposes every held {@code Disposable} (dissociating each), then requests
     * stop on the scope. Later {@code add}s dispose their argument and return {@code false}.
     * Does not wait: use {@link #join()} for that. Only the first call does anything.
     *
     * @throws RuntimeException what the held disposables threw (see the class comment)
     */
    @Override
    public void dispose() {
        rethrow(members.dispose());
    }

    /** {@code true} once {@link #dispose()} was called. */
    @Override
    public boolean isDisposed() {
        return members.isDisposed();
    }

    /**
     * Disposes every held {@code Disposable}, dissociating each, and stays usable (the scope stays
     * open), like {@code CompositeDisposable.clear()}.
     *
     * @throws RuntimeException what the held disposables threw (see the class comment)
     */
    public void clear() {
        rethrow(members.drain());
    }

    /**
     * The number of held {@code Disposable}s (a snapshot).
     *
     * @return the number of held {@code Disposable}s
     */
    public int size() {
        return members.size();
    }

    /** {@code CompositeDisposable}'s rule: one failure as {@code ExceptionHelper.wrapOrThrow} does, several as one. */
    private static void rethrow(@Nullable List<Throwable> failures) {
        if (failures == null) {
            return;
        }
        if (failures.size() > 1) {
            throw new CompositeException(failures);
        }
        Throwable t = failures.get(0);
        if (t instanceof Error) {
            throw (Error) t;
        }
        throw t instanceof RuntimeException ? (RuntimeException) t : new RuntimeException(t);
    }

    @Override
    public String toString() {
        return "ScopeContainer[" + members.scope() + ", held=" + size() + (isDisposed() ? ", disposed" : "") + "]";
    }
}
