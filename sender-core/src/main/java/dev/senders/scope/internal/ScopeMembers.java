package dev.senders.scope.internal;

import dev.senders.internal.signal.Signals;
import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The members held by a container view of a {@link CountingScope} (RxJava's
 * {@code RxScopes.asContainer}, Reactor's {@code ReactorScopes.asComposite}); not public API.
 * Both views are this class plus their library's rules for arguments and exceptions, so they
 * behave the same towards the scope.
 *
 * <p>The contract towards the scope: every member held (each occurrence, for a view with
 * {@code multiset} semantics) is one association, so the scope's {@code join} waits until the
 * member was forgotten, disposed through the view, or disposed by the scope's stop.
 * <ul>
 * <li>{@link #add}: associates and holds; if the view is disposed, the scope closed, or the scope's
 *     stop requested, disposes the member at once and returns {@code false} (a disposed composite).
 *     Without {@code multiset}, adding a held member again changes nothing and returns {@code true}
 *     (RxJava's set); with it, each add holds one more occurrence (Reactor's list).
 * <li>{@link #forget}: drops one occurrence, disposing it or not, and dissociates.
 * <li>{@link #drain}: drops, disposes and dissociates every member; returns what their
 *     {@code dispose} threw, for the view to rethrow by its library's rule. Fatal errors
 *     ({@link Signals#throwIfFatal}) propagate at once.
 * <li>The scope's stop request drains too (the object is the stop callback once
 *     {@link #register registered}); failures found then go to {@code orphanFailures}.
 * </ul>
 */
public final class ScopeMembers<D> implements Runnable {
    /*
     * Members are the keys of a ConcurrentHashMap, the value their number of occurrences.
     * Taking an occurrence out of the map is the claim: whoever takes it (forget, drain, or a losing
     * add) disposes it if it should and dissociates, exactly once per association. add
     * associates, inserts, then re-reads the ending condition (disposed, the scope's stop);
     * dispose and the stop callback set that condition and then drain. All of these accesses
     * are volatile, so either the drain sees the inserted member or add sees the condition
     * and takes its occurrence back itself (Dekker): no member is left behind holding the count.
     */

    private final CountingScope scope;
    private final AsyncScopeToken token;
    private final StopToken stopToken;
    private final Consumer<? super D> disposer;
    private final boolean multiset;
    private final Consumer<? super List<Throwable>> orphanFailures;
    private final ConcurrentHashMap<D, Integer> held = new ConcurrentHashMap<>();
    private volatile int disposed;

    /**
     * @param disposer       disposes one member (its exceptions are the member's failures)
     * @param multiset       whether adding a held member again holds it once more
     * @param orphanFailures where the failures found by the scope's stop go (nobody to throw to)
     */
    public ScopeMembers(CountingScope scope, Consumer<? super D> disposer, boolean multiset,
            Consumer<? super List<Throwable>> orphanFailures) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.token = scope.getToken();
        this.stopToken = scope.stopToken();
        this.disposer = disposer;
        this.multiset = multiset;
        this.orphanFailures = orphanFailures;
    }

    /** Registers the scope's stop callback (separate from the constructor, so that {@code this} is complete). */
    public ScopeMembers<D> register() {
        stopToken.onStop(this); // lives until the scope's stop fires
        return this;
    }

    /** The scope this view holds members for. */
    public CountingScope scope() {
        return scope;
    }

    /** The scope's stop callback: drains; failures go to {@code orphanFailures}. */
    @Override
    public void run() {
        List<Throwable> failures = drain();
        if (failures != null) {
            orphanFailures.accept(failures);
        }
    }

    /**
     * Holds {@code d} as one more association. Returns {@code false}, with {@code d} disposed (its
     * exception propagating), if the view is disposed, the scope closed or its stop requested.
     */
    public boolean add(D d) {
        if (ending() || !token.tryAssociate()) {
            disposer.accept(d);
            return false;
        }
        if (multiset) {
            held.merge(d, 1, Integer::sum);
        } else if (held.putIfAbsent(d, 1) != null) {
            token.dissociate(); // already held: one association per held member
            return true;
        }
        if (ending()) { // a dispose/stop may have drained before our insert: take it back (see notes)
            if (takeOne(d)) {
                release(d, true);
            }
            return false;
        }
        return true;
    }

    /**
     * Adds each of {@code ds} in turn ({@code CompositeDisposable.addAll}'s rule): once one is
     * refused (see {@link #add}), the rest are disposed too. The caller has rejected {@code null}
     * elements before, so that nothing is added then.
     *
     * @return whether all are held
     */
    public boolean addAll(Iterable<? extends D> ds) {
        boolean ok = true;
        for (D d : ds) {
            if (ok) {
                ok = add(d);
            } else {
                disposer.accept(d);
            }
        }
        return ok;
    }

    /**
     * The view's {@code dispose()}, on the calling thread, done by the first call only: closes the
     * scope, disposes and dissociates every member, then requests stop on the scope (whose stop
     * callback then finds nothing to drain, so the members' failures reach this caller).
     *
     * @return what the members' {@code dispose} threw, in order, or {@code null} if nothing (or if
     *     the view was already disposed)
     */
    public @Nullable List<Throwable> dispose() {
        if (!DISPOSED.compareAndSet(this, 0, 1)) {
            return null;
        }
        scope.close();
        List<Throwable> failures = drain();
        scope.requestStop();
        return failures;
    }

    /**
     * Forgets one occurrence of {@code d}, disposing it first if {@code dispose}, and dissociates
     * (even if its {@code dispose} throws, which propagates).
     *
     * @return whether {@code d} was held
     */
    public boolean forget(D d, boolean dispose) {
        if (!takeOne(d)) {
            return false;
        }
        release(d, dispose);
        return true;
    }

    /**
     * Forgets, disposes and dissociates every member (each occurrence), on the calling thread.
     *
     * @return what the members' {@code dispose} threw, in order, or {@code null} if nothing
     */
    public @Nullable List<Throwable> drain() {
        List<Throwable> errors = null;
        for (D d : held.keySet()) {
            Integer n = held.remove(d);
            for (int i = n == null ? 0 : n; i > 0; i--) {
                try {
                    release(d, true);
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    if (errors == null) {
                        errors = new ArrayList<>();
                    }
                    errors.add(t);
                }
            }
        }
        return errors;
    }

    /** Whether {@link #dispose()} was called. */
    public boolean isDisposed() {
        return disposed != 0;
    }

    /** How many members are held, occurrences counted (a snapshot). */
    public int size() {
        return (int) held.reduceValuesToLong(Long.MAX_VALUE, Integer::longValue, 0L, Long::sum);
    }

    private boolean ending() {
        return disposed != 0 || stopToken.stopRequested();
    }

    /** Takes one occurrence of {@code d} out of the map: the claim. */
    private boolean takeOne(D d) {
        boolean[] took = new boolean[1];
        held.computeIfPresent(d, (k, n) -> {
            took[0] = true;
            return n == 1 ? null : n - 1;
        });
        return took[0];
    }

    /** After a claim: dispose (if asked), then dissociate, even if dispose throws. */
    private void release(D d, boolean dispose) {
        try {
            if (dispose) {
                disposer.accept(d);
            }
        } finally {
            token.dissociate();
        }
    }

    @Override
    public String toString() {
        return scope + "[members=" + size() + (isDisposed() ? ", disposed" : "") + "]";
    }

    private static final VarHandle DISPOSED = VarHandles.field(MethodHandles.lookup(), ScopeMembers.class, "disposed", int.class);
}
