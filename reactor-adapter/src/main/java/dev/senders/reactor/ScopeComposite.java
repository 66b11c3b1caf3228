package dev.senders.reactor;

import dev.senders.internal.Signals;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.Disposable;
import reactor.util.context.Context;

/**
 * {@link ReactorScopes#asComposite}: a {@link CountingScope} seen as a {@link Disposable.Composite}.
 * Every held {@code Disposable} is one association with the scope, so {@code scope.join()} waits
 * until each one was removed or disposed through this view.
 *
 * <h2>Implementation notes</h2>
 *
 * The held disposables are the keys of a {@link ConcurrentHashMap} (lock-free reads, per-bin
 * locking for add/remove, O(1)); membership is what the association stands for: whoever removes a
 * key from the map (remove, or dispose's sweep) dissociates it, so each association is released
 * exactly once. {@code disposed} (one volatile int) is set once by {@code dispose()}; an
 * {@code add} that inserted its key checks it afterwards, and if the sweep may have missed the key,
 * takes it back out and disposes it itself (whoever removes the key owns it).
 */
final class ScopeComposite implements Disposable.Composite {

    private final CountingScope scope;
    private final AsyncScopeToken token;
    private final Set<Disposable> held = ConcurrentHashMap.newKeySet();
    private volatile int disposed;

    ScopeComposite(CountingScope scope) {
        this.scope = scope;
        this.token = scope.getToken();
    }

    @Override
    public boolean add(Disposable d) {
        Objects.requireNonNull(d, "d");
        if (disposed != 0 || !token.tryAssociate()) {
            disposeQuietly(d); // like a disposed composite: the caller's resource is not leaked
            return false;
        }
        if (!held.add(d)) {
            token.dissociate(); // already held: one association per held Disposable
            return true;
        }
        if (disposed != 0 && held.remove(d)) {
            // dispose() ran concurrently and may not have seen d: it is ours to dispose
            try {
                disposeQuietly(d);
            } finally {
                token.dissociate();
            }
            return false;
        }
        return true;
    }

    /** Adds each; once one is refused (scope closed or composite disposed), the rest are disposed too. */
    @Override
    public boolean addAll(Collection<? extends Disposable> ds) {
        Objects.requireNonNull(ds, "ds");
        boolean ok = true;
        for (Disposable d : ds) {
            if (ok) {
                ok = add(d);
            } else {
                disposeQuietly(Objects.requireNonNull(d, "d"));
            }
        }
        return ok;
    }

    /** Forgets {@code d} and releases its association, without disposing it (Reactor's contract). */
    @Override
    public boolean remove(Disposable d) {
        if (d != null && held.remove(d)) {
            token.dissociate();
            return true;
        }
        return false;
    }

    @Override
    public int size() {
        return held.size();
    }

    /**
     * Closes the scope, requests stop on it, then disposes and dissociates every held
     * {@code Disposable}, on the calling thread. Idempotent.
     */
    @Override
    public void dispose() {
        if (!DISPOSED.compareAndSet(this, 0, 1)) {
            return;
        }
        scope.close();
        scope.requestStop();
        for (Disposable d : held) {
            if (held.remove(d)) {
                try {
                    disposeQuietly(d);
                } finally {
                    token.dissociate();
                }
            }
        }
    }

    /** Whether {@link #dispose()} was called on this view. */
    @Override
    public boolean isDisposed() {
        return disposed != 0;
    }

    private static void disposeQuietly(Disposable d) {
        try {
            d.dispose();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Dropped.error(t, Context.empty());
        }
    }

    @Override
    public String toString() {
        return "ReactorScopes.asComposite(" + scope + ")[size=" + size() + ", disposed=" + isDisposed() + "]";
    }

    private static final VarHandle DISPOSED;

    static {
        try {
            DISPOSED = MethodHandles.lookup().findVarHandle(ScopeComposite.class, "disposed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
