package dev.senders.reactor;

import dev.senders.scope.internal.RefusedHandle;
import dev.senders.scope.internal.SpawnedWork;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * Async scopes (P3149, {@code dev.senders.scope}) meet Reactor's {@link Disposable} world
 * (the Reactive Streams boundary of docs/design.md):
 * <ul>
 * <li>{@link #spawn(Publisher, AsyncScopeToken)}: fire and forget a publisher into a scope, and get a
 *     {@code Disposable} for that one operation;
 * <li>{@link #nest(Publisher, AsyncScopeToken)}: a {@code Flux} whose every subscription is
 *     associated with the scope (and stopped by it);
 * <li>{@link #asComposite(CountingScope)}: a scope as a {@code Disposable.Composite}, for code that
 *     already tracks {@code Disposable}s.
 * </ul>
 * {@code spawn} and {@code nest} cost one CAS on the scope's counter word each way and keep no
 * per-child registry; {@code asComposite} must hold the user's {@code Disposable}s (to dispose them)
 * in a concurrent set. Prefer {@code spawn}/{@code nest} in new code.
 *
 * <p>Every method rejects {@code null} arguments with a {@link NullPointerException}.
 */
public final class ReactorScopes {

    /**
     * What {@link #spawn} returns, and only then, when the scope refused the work (it was closed):
     * an always-disposed {@code Disposable}. Compare by identity, {@code d == ReactorScopes.REFUSED},
     * to tell a refusal from work that simply finished before {@code spawn} returned (its own
     * {@code Disposable} is then disposed too).
     */
    public static final Disposable REFUSED = new Refused();

    /** {@link #REFUSED}'s class: the shared always-disposed handle as a {@code Disposable}. */
    private static final class Refused extends RefusedHandle implements Disposable {
        Refused() {
            super("ReactorScopes.REFUSED");
        }
    }

    private ReactorScopes() {}

    /**
     * Subscribes to {@code publisher} as work associated with the token's scope, on the calling
     * thread, with unbounded demand, ignoring its elements (they go to Reactor's discard hook), and
     * returns the {@code Disposable} of that one subscription. Behaves as
     * {@code Scopes.spawn(ReactorSenders.fromPublisherIgnoreElements(publisher), token)}, plus the
     * {@code Disposable}, in one object per spawn (the subscriber, the association, the
     * stop registration and the {@code Disposable}; when the token's {@code wrap} adds something
     * to the work, as for named or tracked work, it goes through {@code Scopes.spawn} and its
     * receiver; a token whose only decorator is a {@code SpawnListener} does not add anything
     * there: the listener is told directly):
     * <ul>
     * <li>the scope's count is held until the publisher's terminal signal, or until
     *     {@code dispose()} or the scope's stop (a {@link CountingScope}'s {@code requestStop()})
     *     cancelled the subscription (released on the thread that did it, after {@code cancel()}
     *     returned; a stop while {@code subscribe} is still running on the spawning thread is
     *     completed there, once {@code subscribe} returned);
     * <li>a {@code Mono} that is a {@link java.util.concurrent.Callable} ({@code Mono.fromRunnable},
     *     {@code fromCallable}, {@code fromSupplier}, {@code just}, {@code empty}, {@code error}:
     *     Reactor's synchronous sources) is called on the spawning thread, as Reactor's operators
     *     fuse it, instead of subscribed (its value is discarded, what it throws is its error), and
     *     is not registered on the scope's stop: a stop requested before the spawn means it is
     *     never called, one requested while it runs cannot interrupt it and does not change its
     *     outcome;
     * <li>an {@code onError} goes where {@code Scopes.spawn}'s errors go (the scope's error handler,
     *     else {@code dev.senders.Hooks.onErrorDropped}) and is counted by the scope's
     *     {@code errorCount()}; an upstream {@code CancellationException} is a stop, not an error; an
     *     error after {@code dispose()} goes to {@code Operators.onErrorDropped};
     * <li>if the scope is closed, the publisher is never subscribed and the result is
     *     {@link #REFUSED} (where {@code Scopes.spawn} returns {@code false});
     * <li>{@code isDisposed()} is true once disposed or terminated (as {@code Flux.subscribe()}'s).
     * </ul>
     *
     * @param publisher the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @return the {@code Disposable} of the subscription, or {@link #REFUSED} if the scope was
     *         closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Publisher<?> publisher, AsyncScopeToken token) {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(token, "token");
        if (SpawnedWork.directPath(token)) {
            if (!token.tryAssociate()) {
                return REFUSED;
            }
            PublisherToSpawnedWork work;
            try {
                work = new PublisherToSpawnedWork(publisher);
            } catch (Throwable t) { // an OutOfMemoryError: the association must not stay behind
                token.dissociate();
                throw t;
            }
            work.startDirect(token);
            return work;
        }
        PublisherToSpawnedWork work = new PublisherToSpawnedWork(publisher);
        return work.spawnThroughScopes(token) ? work : REFUSED;
    }

    /**
     * {@link #spawn(Publisher, AsyncScopeToken)} under {@code name} ({@code Scopes.named}): the
     * scope lists the work with its name and age while it runs ({@code outstanding()}, shutdown
     * reports) and its error's {@code ScopeTrace} names it. Named work takes the general path
     * (through {@code Scopes.spawn}), as work of a token whose {@code wrap} adds something does: a
     * token that decorates its work ({@code SpawnDecorator.token}) decorates this work too.
     *
     * @param publisher the work to run; subscribed at once unless the scope is closed
     * @param token the token of the scope the work is associated with
     * @param name what the scope calls the work, e.g. {@code "send-audit-event"}
     * @return the {@code Disposable} of the subscription, or {@link #REFUSED} if the scope was
     *         closed
     * @throws NullPointerException if an argument is null
     */
    public static Disposable spawn(Publisher<?> publisher, AsyncScopeToken token, String name) {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(name, "name");
        PublisherToSpawnedWork work = new PublisherToSpawnedWork(publisher);
        return work.spawnThroughScopes(token, name) ? work : REFUSED;
    }

    /**
     * A cold {@code Flux} of {@code publisher}'s signals whose every subscription is associated with
     * the token's scope:
     * <ul>
     * <li>subscribing associates ({@code tryAssociate}); nothing happens at assembly. If the scope is
     *     closed, the subscriber gets {@code onError(CancellationException)} at once and
     *     {@code publisher} is never subscribed;
     * <li>elements, demand and terminal signals pass straight through; {@code cancel()} cancels the
     *     upstream;
     * <li>the scope's stop (a {@link CountingScope}'s {@code requestStop()}, through the token's
     *     {@code wrap}) cancels the upstream and signals {@code onError(CancellationException)}, on
     *     the stopping thread (or at the end of an {@code onNext} in progress on another thread);
     * <li>the association is released exactly once, after the upstream is finished with (terminated,
     *     or cancelled) and the subscriber's terminal signal (or its cancel) has returned, so a
     *     {@code join()} completes only after that.
     * </ul>
     *
     * @param <T> the element type
     * @param publisher the source of the signals
     * @param token the token of the scope each subscription is associated with
     * @return a cold {@code Flux} of {@code publisher}'s signals, associated with the scope per
     *         subscription
     * @throws NullPointerException if an argument is null
     */
    public static <T> Flux<T> nest(Publisher<? extends T> publisher, AsyncScopeToken token) {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(token, "token");
        return NestFlux.adapt(publisher, token);
    }

    /**
     * A view of {@code scope} as a {@link Disposable.Composite}, a drop-in for
     * {@code Disposables.composite()} whose held {@code Disposable}s are associated with the scope:
     * <ul>
     * <li>{@code add(d)}: associates with the scope and holds {@code d} (adding it twice holds it
     *     twice, as Reactor's composite does); if the scope is closed or its stop requested, or
     *     this view disposed, disposes {@code d} at once and returns {@code false}, like a disposed
     *     composite;
     * <li>{@code remove(d)}: forgets {@code d} and releases its association, <em>without</em>
     *     disposing it (Reactor's contract);
     * <li>{@code dispose()}: closes the scope, disposes every held {@code Disposable} (releasing its
     *     association), then requests stop on the scope; what they throw is rethrown as Reactor's
     *     composite does ({@code Exceptions.propagate} for one, {@code Exceptions.multiple} for
     *     several);
     * <li>the scope's {@code requestStop()} (from anyone) disposes the held {@code Disposable}s too,
     *     so the deadline recipe (close, join with a deadline, then {@code requestStop()}) ends;
     * <li>{@code size()}: how many are held; {@code isDisposed()}: whether this view was disposed;
     *     {@code addAll}: adds each in turn; once one is refused, the rest are disposed and it
     *     returns {@code false}.
     * </ul>
     * So {@code scope.join()} waits for every {@code Disposable} added until it is removed or
     * disposed (typical use: {@code add(d)} at start, {@code remove(d)} in the work's termination
     * callback). Each call returns a new view; views share the scope, not their members. Disposing
     * the view does not join the scope. Behaves as {@code RxScopes.asContainer} does towards the
     * scope.
     *
     * @param scope the scope the view associates with, closes and stops
     * @return a new {@code Disposable.Composite} view of {@code scope}
     * @throws NullPointerException if {@code scope} is null
     */
    public static Disposable.Composite asComposite(CountingScope scope) {
        return new ScopeComposite(Objects.requireNonNull(scope, "scope")).register();
    }

    /**
     * {@link #asComposite(CountingScope)} holding {@code initial} from the start, as
     * {@code Disposables.composite(d...)} does.
     *
     * @param scope the scope the view associates with, closes and stops
     * @param initial the members held from the start
     * @return a new {@code Disposable.Composite} view of {@code scope}
     * @throws NullPointerException if an argument or an element is null (then nothing is held)
     */
    public static Disposable.Composite asComposite(CountingScope scope, Disposable... initial) {
        Objects.requireNonNull(initial, "disposables");
        return asComposite(scope, java.util.Arrays.asList(initial));
    }

    /**
     * {@link #asComposite(CountingScope)} holding {@code initial} from the start, as
     * {@code Disposables.composite(Iterable)} does.
     *
     * @param scope the scope the view associates with, closes and stops
     * @param initial the members held from the start
     * @return a new {@code Disposable.Composite} view of {@code scope}
     * @throws NullPointerException if an argument or an element is null (then nothing is held)
     */
    public static Disposable.Composite asComposite(CountingScope scope, Iterable<? extends Disposable> initial) {
        Objects.requireNonNull(initial, "disposables");
        java.util.List<Disposable> list = new java.util.ArrayList<>();
        for (Disposable d : initial) {
            list.add(Objects.requireNonNull(d, "d is null"));
        }
        Disposable.Composite c = asComposite(scope);
        c.addAll(list);
        return c;
    }
}
