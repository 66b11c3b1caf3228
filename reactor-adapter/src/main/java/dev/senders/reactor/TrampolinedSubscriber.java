package dev.senders.reactor;

import dev.senders.internal.Trampoline;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * A pass-through between a deep {@link StagedMono} and its subscriber that breaks every path of
 * the round trip with the per-thread {@link Trampoline}, so that nested crossings with operators
 * between them keep a bounded stack (the rule: {@link Trampoline#BREAK_DEPTH}).
 *
 * <p>Contract: the subscriber gets {@code onSubscribe(this)} at once, before the source is
 * subscribed (so the subscribe path and the {@code onSubscribe} path do not nest each other);
 * demand and a cancel made before the source's subscription arrives are kept and applied when it
 * does ({@link Operators.DeferredSubscription}). {@code request}, {@code cancel},
 * {@code onNext}, {@code onError} and {@code onComplete} each run through the trampoline: inline,
 * on the calling thread, while it is shallow; otherwise queued and run on the same thread, in order,
 * when its outermost trampoline frame returns. Signals keep their order: they come from one
 * {@link StagedMono.StagedSubscriber}, whose value and completion are one call on one thread.
 * {@code currentContext()} is the subscriber's, read when this is made (a subscriber's context
 * does not change), so that a context lookup from deep inside does not walk every level either.
 *
 * @param <T> the value type
 */
final class TrampolinedSubscriber<T> extends Operators.DeferredSubscription implements CoreSubscriber<T> {

    /*
     * The state is DeferredSubscription's (the upstream subscription, set once, or its cancelled
     * sentinel, and the demand requested before it arrived). The trampolined steps are static
     * methods given as non-capturing BiConsumers, so the inline path allocates nothing (but the
     * Long of a request).
     */

    private final CoreSubscriber<? super T> actual;
    private final Context context;

    TrampolinedSubscriber(CoreSubscriber<? super T> actual) {
        this.actual = actual;
        this.context = actual.currentContext();
    }

    /** The subscriber's context, read once: a lookup (a discard hook, say) ends here, not at the outermost subscriber. */
    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription s) {
        set(s); // applies the demand (or the cancel) that came first
    }

    @Override
    public void onNext(T t) {
        Trampoline.run(TrampolinedSubscriber::next, this, t);
    }

    @Override
    public void onError(Throwable t) {
        Trampoline.run(TrampolinedSubscriber::error, this, t);
    }

    @Override
    public void onComplete() {
        Trampoline.run(TrampolinedSubscriber::complete, this, null);
    }

    @Override
    public void request(long n) {
        Trampoline.run(TrampolinedSubscriber::requestUp, this, n);
    }

    @Override
    public void cancel() {
        Trampoline.run(TrampolinedSubscriber::cancelUp, this, null);
    }

    /** Whether the subscriber cancelled (a cancel queued on the trampoline has not yet). */
    boolean cancelled() {
        return isCancelled();
    }

    private static <T> void next(TrampolinedSubscriber<T> s, T t) {
        s.actual.onNext(t);
    }

    private static void error(TrampolinedSubscriber<?> s, Throwable t) {
        s.actual.onError(t);
    }

    private static void complete(TrampolinedSubscriber<?> s, @Nullable Object unused) {
        s.actual.onComplete();
    }

    private static void requestUp(TrampolinedSubscriber<?> s, Long n) {
        s.requestDeferred(n);
    }

    private static void cancelUp(TrampolinedSubscriber<?> s, @Nullable Object unused) {
        s.cancelDeferred();
    }

    private void requestDeferred(long n) {
        super.request(n);
    }

    private void cancelDeferred() {
        super.cancel();
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public @Nullable Object scanUnsafe(Attr key) {
        if (key == Attr.ACTUAL) {
            return actual;
        }
        if (key == Attr.RUN_STYLE) {
            return Attr.RunStyle.SYNC;
        }
        return super.scanUnsafe(key);
    }

    @Override
    public String stepName() {
        return "toMono(then).trampolined";
    }
}
