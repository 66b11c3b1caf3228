package dev.senders.scope.internal;

import dev.senders.internal.SharedTimer;
import dev.senders.internal.VarHandles;
import dev.senders.scope.AsyncScopeToken;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * A fire-and-forget subscription found by an adapter's hook, as one object: the subscriber that
 * sits between the source and the library's lambda subscriber (the caller's {@code Disposable}),
 * the spawned work whose token is the tracker's {@link FireAndForgetToken}, its stop registration,
 * and the entry the tracker lists (origin, start time, {@link #kind()}). The adapters' subclasses
 * (Reactor's {@code FireAndForgetSubscriber}, RxJava's {@code FireAndForgetObserver}) only pass
 * their library's signals through; this class keeps the upstream handle, the error routing and
 * the listing. Not public API.
 *
 * <p>The work ends with the source's terminal signal (after the lambda subscriber got it), with
 * the caller's {@code dispose()} (the lambda subscriber cancels this subscription: {@link #stop()}),
 * or with the token's stop (the scope's, for a tracked one), which cancels the source and disposes
 * the lambda subscriber. With {@link #ROUTE_ERRORS} (a tracked subscription given no error
 * callback) an error goes to the scope's error handler, once, and the lambda subscriber is
 * disposed instead of getting it; every other error reaches the lambda subscriber.
 *
 * <p>{@code upstream}: {@code null}, then the source's handle (a {@code Subscription} or
 * {@code Disposable}), or {@link #TERMINATED} once the source terminated or the work was
 * stopped; a stop that came first cancels the handle as it arrives (the library's
 * {@code setOnce}/{@code terminate} protocol). The subclass bits of {@link SpawnedWork}'s word:
 * bit 0 {@link #ROUTE_ERRORS}, bits 1..3 the adapter's ({@link #ADAPTER_SHIFT}).
 */
public abstract class FireAndForgetWork extends SpawnedWork {
    /*
     * The state machine is SpawnedWork's, started on the hook's stack (startDirectInline) before
     * the library subscribes this object to the source, so subscribeUpstream does nothing.
     * origin and startNanos are written with plain stores before startDirectInline links this
     * object into its token's stop source: the link's CAS publishes them to the listing threads,
     * which read them only from nodes they found linked.
     */

    /** Subclass bit: errors go to the scope's handler instead of the lambda subscriber. */
    protected static final int ROUTE_ERRORS = 1;
    /** Where the adapter's own subclass bits start (three bits). */
    protected static final int ADAPTER_SHIFT = 1;

    /** {@code upstream} once the source terminated or the work was stopped. */
    private static final Object TERMINATED = new Object();

    private volatile @Nullable Object upstream;
    /** The callback's class, or the subscribe site (a {@code StackFrame}, or captured frames). */
    @SuppressWarnings("NullAway.Init") // set by start, before the work is published
    private Object origin;
    private long startNanos;

    /**
     * @param bits {@link #ROUTE_ERRORS} and the adapter's bits (shifted by {@link #ADAPTER_SHIFT})
     */
    protected FireAndForgetWork(int bits) {
        super(bits);
    }

    /**
     * Starts the work with the token {@code FireAndForgetTracker.associate()} returned, on the
     * hook's stack, before the library subscribes it to the source.
     *
     * @param token the tracker's token
     * @param origin what {@code FireAndForgetTracker.origin} found
     */
    public final void start(AsyncScopeToken token, Object origin) {
        this.origin = origin;
        this.startNanos = SharedTimer.nanoTime();
        startDirectInline(token);
    }

    /**
     * What was subscribed, e.g. {@code "Mono.subscribe"}.
     *
     * @return the kind listed for this subscription
     */
    public abstract String kind();

    /**
     * The callback's class, or the subscribe site, as the tracker found it.
     *
     * @return the origin
     */
    public final Object origin() {
        return origin;
    }

    /**
     * When the subscription was found ({@code SharedTimer.nanoTime()}).
     *
     * @return the start time
     */
    public final long startNanos() {
        return startNanos;
    }

    /** The adapter's bits given to the constructor. */
    protected final int adapterBits() {
        return subclassBits() >>> ADAPTER_SHIFT;
    }

    // ---------------------------------------------------------------- the adapter's part

    /** Cancels (disposes) the source's handle. */
    protected abstract void cancel(Object upstream);

    /** Disposes the lambda subscriber, so that the caller's {@code Disposable} reports disposed. */
    protected abstract void disposeActual();

    // ---------------------------------------------------------------- the upstream handle

    @Override
    protected final void subscribeUpstream() {
        // the library subscribes this object to the source once the hook returned it
    }

    @Override
    protected final void cancelUpstream() {
        Object u = UPSTREAM.getAndSet(this, TERMINATED);
        if (u != null && u != TERMINATED) {
            cancel(u);
        }
        disposeActual(); // the caller's Disposable reports disposed (a no-op when it is the one disposing)
    }

    /**
     * The source's handle arrived ({@code onSubscribe}): kept, or cancelled at once if the work
     * was stopped or disposed first (then the source never runs). Either way the adapter passes
     * this object on to the lambda subscriber's {@code onSubscribe}.
     */
    protected final void upstreamArrived(Object handle) {
        if (!UPSTREAM.compareAndSet(this, null, handle)) {
            cancel(handle);
        }
    }

    /**
     * The source's handle, for a request; {@code null} before it arrived and once terminated.
     *
     * @return the handle, or {@code null}
     */
    protected final @Nullable Object upstream() {
        Object u = upstream;
        return u == TERMINATED ? null : u;
    }

    /**
     * A terminal signal came: forgets the handle. After passing the signal on, the adapter calls
     * {@link #upstreamCompleted()} (in a {@code finally}).
     */
    protected final void terminating() {
        UPSTREAM.setRelease(this, TERMINATED);
    }

    /**
     * An error came: with {@link #ROUTE_ERRORS} it goes to the scope's handler (once), the lambda
     * subscriber is disposed, and this returns {@code true}; otherwise returns {@code false} and
     * the adapter passes the error to the lambda subscriber, then calls {@link #upstreamCompleted()}.
     *
     * @param error the source's error
     * @return whether the error was routed to the scope
     */
    protected final boolean routedToScope(Throwable error) {
        UPSTREAM.setRelease(this, TERMINATED);
        if ((subclassBits() & ROUTE_ERRORS) == 0) {
            return false;
        }
        upstreamTerminated(error);
        disposeActual();
        return true;
    }

    @Override
    public String toString() {
        return "FireAndForget[" + kind() + (isDisposed() ? ", ended" : ", running") + "]";
    }

    private static final VarHandle UPSTREAM = VarHandles.field(MethodHandles.lookup(), FireAndForgetWork.class, "upstream", Object.class);
}
