package dev.senders.reactor;

import dev.senders.ProtocolViolationException;
import dev.senders.internal.signal.Signals;
import dev.senders.scope.internal.SpawnedWork;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CorePublisher;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@link ReactorScopes#spawn}: one publisher spawned into a scope, as one object: the
 * association with the scope and the stop registration ({@link SpawnedWork}, which also decides
 * between the direct path and {@code Scopes.spawn}), the subscriber, and the {@link Disposable}
 * returned to the caller. The subscriber requests {@code Long.MAX_VALUE} in {@code onSubscribe}
 * (as {@code Flux.subscribe()}), discards elements to Reactor's discard hook, and ends the work
 * with the publisher's terminal signal ({@code onComplete}: done; {@code onError}: the scope's
 * error handler chain; a {@code CancellationException}: stopped).
 *
 * <h2>Implementation notes</h2>
 *
 * <p>{@code upstream} follows Reactor's {@code Operators.setOnce}/{@code terminate} protocol:
 * {@code null} until {@code onSubscribe}, then the {@code Subscription}, or {@link #CANCELLED};
 * whoever swaps in {@code CANCELLED} cancels what was there; an {@code onSubscribe} that finds a
 * subscription or {@code CANCELLED} cancels its argument (the second subscription of a broken
 * publisher is reported, RS §2.5). The dispose/stop paths cancel the upstream <em>before</em>
 * completing, so the association is released after the source was told to stop.
 *
 * <p>The subscriber checks the publisher: {@code onSubscribe(null)}, {@code onNext(null)} and
 * {@code onError(null)} fail the work and throw a {@link NullPointerException} (RS §2.13), an {@code onNext} before {@code onSubscribe} (§1.9) fails the work with a
 * {@link ProtocolViolationException}, a {@code request} or {@code cancel} that throws (§3.16,
 * §3.15) fails the work or is reported; an error after the work ended goes to
 * {@code Operators.onErrorDropped}. {@link #currentContext()} is the spawn env's
 * {@link ReactorSenders#CONTEXT} (plus the env itself, as every publisher run for a receiver sees
 * it), computed when asked: the work keeps no field for it.
 */
final class PublisherToSpawnedWork extends SpawnedWork implements CoreSubscriber<Object>, Disposable {
    /*
     * An async-shaped Mono (not a Callable: a WebClient call, subscribeOn, anything behind hide())
     * fails the instanceof Callable of synchronousSource() on every spawn, and on some JVMs a
     * failed test of an interface scans the class's interface list each time. The class of the
     * last such Mono is kept in a static field, so a spawn of the same kind of source tests one
     * class identity instead (what it saves: docs/benchmarks.md, the adapters' general path).
     */

    /** The terminal value of {@code upstream}: cancelled, or nothing left to cancel. */
    static final Subscription CANCELLED = Operators.cancelledSubscription();

    /** Cleared once subscribed: a finished work kept briefly by the stop source holds no user object. */
    private @Nullable Publisher<?> source;
    private volatile @Nullable Subscription upstream;

    PublisherToSpawnedWork(Publisher<?> source) {
        super(0);
        this.source = source;
    }

    @Override
    protected void subscribeUpstream() {
        boolean synchronous = synchronousSource(); // asks the source, so before it is cleared
        Publisher<?> p = Nulls.nonNull(source); // subscribed once
        source = null;
        if (synchronous && !ReactorSubscribe.contextMayWrap()) {
            CorePublisher<?> last = Operators.onLastAssembly((Mono<?>) p);
            if (last == p) {
                call((Callable<?>) p);
            } else {
                ReactorSubscribe.subscribeAssembled(last, this); // a hook replaced it: subscribe what it made
            }
            return;
        }
        ReactorSubscribe.subscribe(p, this);
    }

    /**
     * Reactor's fusion of a synchronous source, as its operators do it ({@code flatMap} of a
     * {@code Callable}): {@code call()} instead of a subscription. Its value, if any, goes to the
     * discard hook as an element would; what it throws is an error, through
     * {@code Operators.onOperatorError} as {@code Mono.fromCallable}'s subscription reports it.
     * Nothing can cancel it meanwhile: the work is not registered on a stop token while it is
     * being subscribed (decision U7) and its {@code Disposable} is not handed out yet.
     */
    private void call(Callable<?> c) {
        Object value;
        try {
            value = c.call();
        } catch (Throwable e) {
            Signals.throwIfFatal(e);
            upstreamTerminated(Operators.onOperatorError(e, currentContext()));
            return;
        }
        if (value != null) {
            Dropped.discard(value, Context.of(Nulls.nonNull(env().get(ReactorSenders.CONTEXT))));
        }
        upstreamCompleted();
    }

    /**
     * A {@code Mono} that is a {@code Callable}: Reactor's synchronous sources, which its own
     * operators replace by {@code call()}, as {@link #subscribeUpstream} does (decision U7). A
     * class test first: it fails fast for a {@code Flux} or a plain {@code Publisher}, without
     * scanning their interfaces; then the last {@code Mono} class found not to be a
     * {@code Callable}.
     */
    private boolean synchronousSource() {
        Object p = source;
        if (!(p instanceof Mono)) {
            return false;
        }
        Class<?> c = p.getClass();
        if (c == lastNotCallable) {
            return false;
        }
        if (p instanceof Callable) {
            return true;
        }
        lastNotCallable = c; // a plain write: a stale read only means one more interface test
        return false;
    }

    /**
     * The last {@code Mono} class {@link #synchronousSource} found not to be a {@code Callable};
     * whether a class is one never changes, so any value read, stale or not, gives a right answer.
     */
    private static @Nullable Class<?> lastNotCallable;

    @Override
    protected void cancelUpstream() {
        Subscription s = (Subscription) UPSTREAM.getAndSet(this, CANCELLED);
        if (s != null && s != CANCELLED) {
            cancel(s);
        }
    }

    /** RS §3.15: cancel must return normally; a publisher whose cancel throws is reported, not trusted. */
    private void cancel(Subscription s) {
        try {
            s.cancel();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            ProtocolViolationException pve = new ProtocolViolationException("the subscription of a publisher spawned with"
                    + " ReactorScopes.spawn threw from cancel() (Reactive Streams §3.15)");
            pve.initCause(t);
            Dropped.error(pve, currentContext());
        }
    }

    @Override
    protected void dropError(Throwable error) {
        Dropped.error(error, currentContext());
    }

    @Override
    public Context currentContext() {
        return ReactorSenders.contextOf(env());
    }

    // ---- Disposable

    @Override
    public void dispose() {
        stop();
    }

    // isDisposed(): SpawnedWork's, true once disposed, stopped or terminated (as Flux.subscribe()'s)

    // ---- CoreSubscriber

    @Override
    public void onSubscribe(Subscription s) {
        if (s != null && UPSTREAM.compareAndSet(this, null, s)) {
            request(s);
            return;
        }
        badSubscribe(s);
    }

    private void request(Subscription s) {
        try {
            s.request(Long.MAX_VALUE);
        } catch (Throwable t) {
            Signals.throwIfFatal(t); // §3.16: request must return normally; the work gets the failure
            fail(t);
        }
    }

    /** A null subscription, or a second one (cancelled; reported unless we cancelled the first). */
    private void badSubscribe(Subscription s) {
        if (s == null) {
            NullPointerException npe = nullSignal("onSubscribe(null)");
            fail(npe); // the work must still end, so that a join does not wait for a broken publisher
            throw npe;
        }
        cancel(s);
        if (upstream != CANCELLED) {
            Dropped.error(new ProtocolViolationException("a publisher spawned with ReactorScopes.spawn called onSubscribe"
                    + " twice (Reactive Streams §2.5); the second subscription was cancelled, the first is kept"), currentContext());
        }
    }

    @Override
    public void onNext(Object t) {
        if (t == null) {
            NullPointerException npe = nullSignal("onNext(null)");
            fail(npe);
            throw npe;
        }
        if (upstream == null) {
            fail(new ProtocolViolationException("a publisher spawned with ReactorScopes.spawn called onNext before"
                    + " onSubscribe (Reactive Streams §1.9)"));
            Dropped.next(t, currentContext());
            return;
        }
        // spawned work's elements are given up, as Flux.subscribe() without a consumer does; only
        // the discard hook (a Context entry) can observe them
        Dropped.discard(t, Context.of(Nulls.nonNull(env().get(ReactorSenders.CONTEXT)))); // the query has a default
        checkStopWhileSubscribing(); // a synchronous source of many elements: a stop cancels it now
    }

    @Override
    public void onError(Throwable e) {
        if (e == null) {
            NullPointerException npe = nullSignal("onError(null)");
            fail(npe);
            throw npe;
        }
        UPSTREAM.setRelease(this, CANCELLED); // nothing left to cancel: drops the reference (no fence)
        upstreamTerminated(e);
    }

    @Override
    public void onComplete() {
        UPSTREAM.setRelease(this, CANCELLED);
        upstreamCompleted();
    }

    private static NullPointerException nullSignal(String signal) {
        return new NullPointerException("a publisher spawned with ReactorScopes.spawn called " + signal
                + " (Reactive Streams §2.13: signals must not be null)");
    }

    @Override
    public String toString() {
        return "ReactorScopes.spawn[disposed=" + isDisposed() + "]";
    }

    private static final VarHandle UPSTREAM = VarHandles.field(MethodHandles.lookup(), PublisherToSpawnedWork.class, "upstream", Subscription.class);
}
