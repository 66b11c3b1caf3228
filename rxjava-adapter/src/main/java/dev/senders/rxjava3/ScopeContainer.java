package dev.senders.rxjava3;

import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.disposables.DisposableContainer;
import io.reactivex.rxjava3.exceptions.CompositeException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * <li>The scope's own {@code requestStop()} (from anyone) disposes the held {@code Disposable}s
 *     too, and every {@code add} after it disposes its argument and returns {@code false}: stop is
 *     sticky, as for all work associated with a {@code CountingScope}.
 * </ul>
 *
 * <p>Exceptions thrown by the held {@code Disposable}s' {@code dispose()} in {@code dispose()} and
 * {@code clear()} are collected and rethrown after all were disposed and dissociated, like
 * {@code CompositeDisposable}: one as is (a checked one wrapped in {@code RuntimeException}),
 * several as a {@link CompositeException}. When the scope's {@code requestStop()} disposes them,
 * there is no caller to throw to: the exception goes to {@code RxJavaPlugins.onError}. Fatal errors
 * ({@code VirtualMachineError}, {@code LinkageError}) propagate at once.
 *
 * <p>All methods are thread-safe and may be called from any thread; {@code dispose} and
 * {@code clear} dispose on the calling thread (or, for the scope's {@code requestStop()}, on the
 * thread that requested stop).
 *
 * <h2>Implementation notes</h2>
 *
 * <p>The held set is per child by nature (a {@code Disposable} can only be disposed if it is held
 * somewhere), so it is a {@link ConcurrentHashMap} key set: O(1) expected {@code add}/{@code
 * remove}, no lock on the container (CompositeDisposable: an {@code OpenHashSet} behind
 * {@code synchronized}). Removal from the set is the claim: whoever removes {@code d} (remove,
 * delete, dispose, clear, the stop callback, or a losing add) disposes it if it should and
 * dissociates, exactly once per successful association.
 *
 * <p>{@code add} associates, then inserts, then re-reads the "ending" condition ({@code disposed}
 * or the scope's stop requested); {@code dispose} and the stop callback set that condition, then
 * drain the set. All accesses are volatile (the set's table and node links, {@code disposed}, the
 * stop source's state), so by sequential consistency either the drain sees the inserted
 * {@code d} or {@code add} sees the condition and takes {@code d} back itself (Dekker); both
 * claim through {@code held.remove(d)}, so no {@code d} is left behind holding the count and none
 * is dissociated twice.
 */
public final class ScopeContainer implements DisposableContainer, Disposable {

    private final CountingScope scope;
    private final AsyncScopeToken token;
    private final StopToken stopToken;
    private final Set<Disposable> held = ConcurrentHashMap.newKeySet();
    private volatile boolean disposed;

    ScopeContainer(CountingScope scope) {
        this.scope = scope;
        this.token = scope.getToken();
        this.stopToken = scope.stopToken();
    }

    /** Registers the stop callback; separate from the constructor so that {@code this} is complete. */
    ScopeContainer register() {
        stopToken.onStop(this::stopRequested); // lives until the scope's stop fires
        return this;
    }

    /** The scope's stop callback: nobody to throw to, so dispose() failures go to RxJavaPlugins. */
    private void stopRequested() {
        RuntimeException e = drain();
        if (e != null) {
            io.reactivex.rxjava3.plugins.RxJavaPlugins.onError(e);
        }
    }

    /**
     * The scope this container views.
     *
     * @return the scope this container views
     */
    public CountingScope scope() {
        return scope;
    }

    /**
     * The scope's {@link CountingScope#join() join()}: completes once all associated work has ended.
     *
     * @return a sender that completes once all work associated with the scope has ended
     */
    public Sender<Void> join() {
        return scope.join();
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
        Objects.requireNonNull(d, "d");
        if (ending() || !token.tryAssociate()) {
            d.dispose();
            return false;
        }
        if (!held.add(d)) {
            token.dissociate(); // already held: one association per held d
            return true;
        }
        if (ending()) { // a dispose/stop may have drained before our insert: take d back (see notes)
            if (held.remove(d)) {
                release(d);
            }
            return false;
        }
        return true;
    }

    /**
     * Forgets {@code d}, disposes it and dissociates it from the scope, if it is held.
     *
     * @return {@code true} if {@code d} was held
     * @throws NullPointerException if {@code d} is null
     */
    @Override
    public boolean remove(Disposable d) {
        Objects.requireNonNull(d, "d");
        if (held.remove(d)) {
            release(d);
            return true;
        }
        return false;
    }

    /**
     * Forgets {@code d} and dissociates it from the scope without disposing it, if it is held.
     *
     * @return {@code true} if {@code d} was held
     * @throws NullPointerException if {@code d} is null
     */
    @Override
    public boolean delete(Disposable d) {
        Objects.requireNonNull(d, "d");
        if (held.remove(d)) {
            token.dissociate();
            return true;
        }
        return false;
    }

    /**
     * Closes the scope, disposes every held {@code Disposable} (dissociating each), then requests
     * stop on the scope. Later {@code add}s dispose their argument and return {@code false}.
     * Does not wait: use {@link #join()} for that. Only the first call does anything.
     */
    @Override
    public void dispose() {
        if (!DISPOSED.compareAndSet(this, false, true)) {
            return;
        }
        scope.close();
        RuntimeException failure = drain(); // first, so that what the held disposables throw reaches the caller
        scope.requestStop();                // stops spawned work; our own callback finds the set empty
        if (failure != null) {
            throw failure;
        }
    }

    /** {@code true} once {@link #dispose()} was called. */
    @Override
    public boolean isDisposed() {
        return disposed;
    }

    /**
     * Disposes every held {@code Disposable}, dissociating each, and stays usable (the scope stays
     * open), like {@code CompositeDisposable.clear()}.
     */
    public void clear() {
        RuntimeException e = drain();
        if (e != null) {
            throw e;
        }
    }

    /**
     * The number of held {@code Disposable}s (a snapshot).
     *
     * @return the number of held {@code Disposable}s
     */
    public int size() {
        return held.size();
    }

    private boolean ending() {
        return disposed || stopToken.stopRequested();
    }

    /** Claims and releases everything held; returns what the disposables threw, CompositeDisposable-style. */
    private RuntimeException drain() {
        List<Throwable> errors = null;
        for (Disposable d : held) {
            if (held.remove(d)) {
                try {
                    release(d);
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    if (errors == null) {
                        errors = new ArrayList<>();
                    }
                    errors.add(t);
                }
            }
        }
        if (errors == null) {
            return null;
        }
        if (errors.size() == 1) {
            Throwable t = errors.get(0);
            return t instanceof RuntimeException ? (RuntimeException) t : new RuntimeException(t);
        }
        return new CompositeException(errors);
    }

    /** After winning {@code held.remove(d)}: dispose, then dissociate, even if dispose throws. */
    private void release(Disposable d) {
        try {
            d.dispose();
        } finally {
            token.dissociate();
        }
    }

    @Override
    public String toString() {
        return "ScopeContainer[" + scope + ", held=" + held.size() + (disposed ? ", disposed" : "") + "]";
    }

    private static final VarHandle DISPOSED;

    static {
        try {
            DISPOSED = MethodHandles.lookup().findVarHandle(ScopeContainer.class, "disposed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
