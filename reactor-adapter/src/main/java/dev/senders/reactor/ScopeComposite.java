package dev.senders.reactor;

import dev.senders.scope.internal.ScopeMembers;
import dev.senders.scope.CountingScope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.util.context.Context;

/**
 * {@link ReactorScopes#asComposite}: a {@link CountingScope} seen as a {@link Disposable.Composite},
 * a drop-in for {@code Disposables.composite()}. Every held {@code Disposable} (each occurrence:
 * like Reactor's list-based composite, adding one twice holds it twice) is one association with the
 * scope, so {@code scope.join()} waits until each one was removed, or disposed through this view
 * or by the scope's stop.
 *
 * <ul>
 * <li>{@code add(d)}: associates and holds {@code d}; {@code true}. If this view is disposed, the
 *     scope closed, or the scope's stop requested, {@code d} is disposed at once and the result is
 *     {@code false}, like a disposed composite.
 * <li>{@code addAll(ds)}: adds each; once one is refused the rest are disposed too and the result
 *     is {@code false}. A {@code null} element is rejected before anything is added.
 * <li>{@code remove(d)}: forgets one occurrence of {@code d} and releases its association,
 *     <em>without</em> disposing it (Reactor's contract).
 * <li>{@code dispose()}: closes the scope, disposes every held {@code Disposable} (releasing each
 *     association), then requests stop on the scope. Idempotent.
 * <li>The scope's own {@code requestStop()} (from anyone) disposes the held {@code Disposable}s
 *     too, and every later {@code add} disposes its argument and returns {@code false}: stop is
 *     sticky, as for all work associated with a {@code CountingScope}.
 * <li>{@code size()}: how many are held (0 once disposed); {@code isDisposed()}: whether this view
 *     was disposed.
 * </ul>
 *
 * <p>What the held {@code Disposable}s' {@code dispose()} throw in {@code dispose()} is rethrown
 * after all were disposed and released, by Reactor's composite's rule: a single one through
 * {@link Exceptions#propagate} (a {@code RuntimeException} as is, anything else wrapped), several
 * as {@link Exceptions#multiple}. When the scope's stop disposes them there is no caller: they go
 * to {@code Operators.onErrorDropped}. {@code null} arguments are rejected with Reactor's
 * {@code NullPointerException}s.
 */
final class ScopeComposite implements Disposable.Composite {
    /*
     * The members are held by ScopeMembers (shared with RxJava's RxScopes.asContainer,
     * so both views behave the same towards the scope): lock-free reads, per-bin locking for
     * add/remove, O(1); taking an occurrence out is the claim, so each association is released
     * exactly once, and an add racing dispose or the scope's stop cannot leave a member
     * behind.
     */

    private final ScopeMembers<Disposable> members;

    ScopeComposite(CountingScope scope) {
        this.members = new ScopeMembers<>(scope, Disposable::dispose, true, ScopeComposite::orphaned);
    }

    /** Registers the scope's stop callback; separate from the constructor so that {@code this} is complete. */
    ScopeComposite register() {
        members.register();
        return this;
    }

    /** The scope's stop disposed the members: nobody to throw to. */
    private static void orphaned(List<Throwable> failures) {
        for (Throwable t : failures) {
            Dropped.error(t, Context.empty());
        }
    }

    @Override
    public boolean add(Disposable d) {
        Objects.requireNonNull(d, "d is null");
        return members.add(d);
    }

    /** Adds each; once one is refused (scope closed or stopped, view disposed), the rest are disposed too. */
    @Override
    public boolean addAll(Collection<? extends Disposable> ds) {
        Objects.requireNonNull(ds, "ds is null");
        List<Disposable> list = new ArrayList<>(ds.size());
        for (Disposable d : ds) {
            list.add(Objects.requireNonNull(d, "d is null"));
        }
        return members.addAll(list);
    }

    /** Forgets one occurrence of {@code d} and releases its association, without disposing it (Reactor's contract). */
    @Override
    public boolean remove(Disposable d) {
        Objects.requireNonNull(d, "Disposable item is null");
        return members.forget(d, false);
    }

    @Override
    public int size() {
        return members.size();
    }

    /**
     * Closes the scope, disposes and releases every held {@code Disposable}, then requests stop on
     * the scope, on the calling thread. Idempotent.
     *
     * @throws RuntimeException what the held disposables threw (see the class comment)
     */
    @Override
    public void dispose() {
        List<Throwable> failures = members.dispose();
        if (failures != null) {
            throw failures.size() == 1 ? Exceptions.propagate(failures.get(0)) : Exceptions.multiple(failures);
        }
    }

    /** Whether {@link #dispose()} was called on this view. */
    @Override
    public boolean isDisposed() {
        return members.isDisposed();
    }

    @Override
    public String toString() {
        return "ReactorScopes.asComposite(" + members.scope() + ")[size=" + size() + ", disposed=" + isDisposed() + "]";
    }
}
