package dev.senders.reactor;

import dev.senders.Sender;
import dev.senders.internal.Trampoline;
import dev.senders.internal.VarHandles;
import dev.senders.internal.signal.Stages;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * {@link ReactorSenders#toMono} of {@code fromMono(m)} followed by {@code then} / {@code uponError}
 * stages: one operator that subscribes to {@code m} and applies the sender chain's stages to its
 * signal, instead of a sender subscription on top of a publisher operation (decision R4 in
 * docs/decisions.md). The signals are the round trip's: a value {@code v} becomes the stages'
 * result of {@code v}, an empty {@code m} the stages' result of {@code null} (as {@code fromMono}
 * delivers {@code setValue(null)}), an error {@code e} whatever the stages make of it; a
 * {@code null} result is an empty completion, a stage that throws an {@code onError}. A cancel
 * reaches {@code m} directly. Chains with {@code uponStopped} or {@code stoppedAsError} keep the
 * full adapter (their code runs on a stop, which this operator has none of). Nested crossings
 * ({@code toMono(fromMono(toMono(fromMono(m).then(f))).then(g))}) are one operator applying
 * {@code f}'s stages then {@code g}'s: what the inner one delivers is exactly what the outer
 * stages would receive (an empty completion becomes {@code null} again), and it keeps any depth of
 * nesting off the stack.
 *
 * <p>Stack safety of crossings that do not collapse (a Reactor operator between the levels):
 * subscribing to a source other than a {@link Callable} one ({@code just}, {@code fromSupplier},
 * {@code error}, {@code empty}: subscribing them subscribes nothing else) is a frame of the
 * per-thread {@link Trampoline}, queued beyond its depth; subscribed {@link Trampoline#BREAK_DEPTH}
 * or more frames deep, the operator puts a {@link TrampolinedSubscriber} before its subscriber,
 * which breaks the {@code onSubscribe}, {@code request}, signal and {@code cancel} paths. A
 * crossing of a {@code Callable} source, or one near the top of the stack, runs exactly as
 * without nesting.
 *
 * <p>Signals reach the subscriber on the thread on which {@code m} signals, or on the requesting
 * thread when a value made from an empty or failed {@code m} waited for demand.
 *
 * @param <T> the source's value type
 * @param <R> the result type
 */
final class StagedMono<T, R> extends Mono<R> implements Scannable {

    private final Mono<? extends T> source;
    private final Stages stages;
    /** Whether subscribing to the source only calls it: no other subscription nests inside. */
    private final boolean callableSource;

    private StagedMono(Mono<? extends T> source, Stages stages) {
        this.source = source;
        this.stages = stages;
        this.callableSource = source instanceof Callable;
    }

    /**
     * The fused operator for {@code sender} if it is a chain of {@code then}/{@code uponError}
     * stages on {@code fromMono(m)} of a {@code Mono m}, else {@code null}.
     */
    static <R> @Nullable Mono<R> of(Sender<? extends R> sender) {
        if (!(sender instanceof Stages.Chain)) {
            return null;
        }
        Stages.Chain chain = (Stages.Chain) sender;
        if (!(chain.stagesSource() instanceof PublisherToSender)) {
            return null;
        }
        Mono<?> m = ((PublisherToSender<?, ?>) chain.stagesSource()).originalMono();
        Stages stages = chain.stages();
        if (m == null || !stages.stoppedPassesThrough()) {
            return null;
        }
        if (m instanceof StagedMono) { // a crossing of a crossing: one operator, the stages one after the other
            StagedMono<?, ?> inner = (StagedMono<?, ?>) m;
            return onAssembly(new StagedMono<Object, R>(inner.source, inner.stages.andThen(stages)));
        }
        return onAssembly(new StagedMono<Object, R>(m, stages));
    }

    @Override
    public void subscribe(CoreSubscriber<? super R> actual) {
        if (callableSource) {
            source.subscribe(new StagedSubscriber<T, R>(actual, stages)); // as Reactor's own operators subscribe their source
        } else {
            Trampoline.runFrame(StagedMono::subscribeAt, this, actual);
        }
    }

    /** The subscription of a source that may nest others, in a trampoline frame {@code depth} deep. */
    private static <T, R> void subscribeAt(StagedMono<T, R> m, CoreSubscriber<? super R> actual, int depth) {
        if (depth < Trampoline.BREAK_DEPTH) {
            m.source.subscribe(new StagedSubscriber<T, R>(actual, m.stages));
            return;
        }
        TrampolinedSubscriber<R> broken = new TrampolinedSubscriber<>(actual);
        actual.onSubscribe(broken);
        if (!broken.cancelled()) {
            m.source.subscribe(new StagedSubscriber<T, R>(broken, m.stages));
        }
    }

    @Override
    public String stepName() {
        return "toMono(then)";
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public @Nullable Object scanUnsafe(Attr key) {
        return OperatorScan.syncOperator(key, source);
    }

    /**
     * The subscriber. A value that follows the source's {@code onNext} is emitted at once (the
     * source emitted on demand this subscriber passed on); one made from an empty or failed source
     * needs demand of its own, which {@code state} races against {@code request} and
     * {@code cancel}:
     * <pre>
     *   REQUESTED  1   request(n > 0) was seen
     *   HAS_VALUE  2   a value made from an empty or failed source waits in {@code pending}
     *                  (written before this bit's atomic or)
     *   CANCELLED  4   the subscriber cancelled
     * </pre>
     * Whichever of {@code request} and the completion sets its bit second, with the other's there
     * and no CANCELLED, emits; a cancel that finds HAS_VALUE without REQUESTED discards the value.
     * {@code request} passes the demand on first and records it only if the source has not
     * delivered its value by then (a synchronous source has: no atomic instruction on that path).
     * {@code pending} also says where the source is, written by the source's signals, which are
     * serial (Reactive Streams §1.3): {@code null} before its terminal signal, {@code DONE} after an
     * {@code onNext} (and once a waiting value is taken), {@code NEEDS_DEMAND} while the stages
     * run for an empty or failed source, then the waiting value.
     */
    static final class StagedSubscriber<T, R> implements CoreSubscriber<T>, Subscription, Scannable, Stages.Sink {
        private static final int REQUESTED = 1, HAS_VALUE = 2, CANCELLED = 4;
        private static final Object DONE = new Object(), NEEDS_DEMAND = new Object();
        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), StagedSubscriber.class, "state", int.class);

        private final CoreSubscriber<? super R> actual;
        private final Stages stages;
        private @Nullable Subscription s;
        private @Nullable Object pending;   // see the class notes; a value is published by the atomic or that sets HAS_VALUE
        private volatile int state;

        StagedSubscriber(CoreSubscriber<? super R> actual, Stages stages) {
            this.actual = actual;
            this.stages = stages;
        }

        @Override
        public Context currentContext() {
            return actual.currentContext();
        }

        @Override
        public void onSubscribe(Subscription s) {
            if (Operators.validate(this.s, s)) {
                this.s = s;
                actual.onSubscribe(this);
            }
        }

        @Override
        public void onNext(T t) {
            if (t == null) {
                throw nullSignal("onNext(null)");
            }
            if (pending != null) {
                Dropped.next(t, actual.currentContext()); // a Mono that signals twice
                return;
            }
            pending = DONE;
            stages.apply(Stages.VALUE, t, this);
        }

        @Override
        public void onError(Throwable t) {
            if (t == null) {
                throw nullSignal("onError(null)");
            }
            if (pending != null) {
                Dropped.error(t, actual.currentContext());
                return;
            }
            pending = NEEDS_DEMAND;
            stages.apply(Stages.ERROR, t, this);
        }

        @Override
        public void onComplete() {
            if (pending != null) {
                return; // the completion after the value
            }
            pending = NEEDS_DEMAND;
            stages.apply(Stages.VALUE, null, this);
        }

        /**
         * A null signal (Reactive Streams §2.13): the subscriber fails with the
         * {@code NullPointerException} (the source is cancelled) and the caller gets it thrown.
         */
        private NullPointerException nullSignal(String signal) {
            NullPointerException npe = new NullPointerException("the Mono under toMono(fromMono(m).then(..)) called "
                    + signal + " (Reactive Streams §2.13: signals must not be null)");
            if (pending == null) {
                pending = DONE;
                Subscription up = s;
                if (up != null) {
                    up.cancel();
                }
                actual.onError(npe);
            }
            return npe;
        }

        // ---- Stages.Sink: what the last stage leaves

        @Override
        @SuppressWarnings("unchecked") // the last stage's result is an R
        public void value(@Nullable Object value) {
            if (value == null) {
                actual.onComplete();
            } else if (pending == DONE) {
                if ((state & CANCELLED) != 0) {
                    Dropped.discard(value, actual.currentContext());
                    return;
                }
                actual.onNext((R) value);
                actual.onComplete();
            } else {
                pending = value;
                int prev = (int) STATE.getAndBitwiseOr(this, HAS_VALUE);
                if ((prev & CANCELLED) != 0) {
                    pending = DONE;
                    Dropped.discard(value, actual.currentContext());
                } else if ((prev & REQUESTED) != 0) {
                    pending = DONE;
                    actual.onNext((R) value);
                    actual.onComplete();
                }
            }
        }

        @Override
        public void error(Throwable error) {
            actual.onError(error);
        }

        @Override
        public void stopped() {
            actual.onError(new CancellationException("stopped")); // not reached: no stage makes a stop from a value or an error
        }

        // ---- Subscription

        @Override
        @SuppressWarnings("unchecked") // pending holds an R
        public void request(long n) {
            Subscription up = s;
            if (up != null) {
                up.request(n); // n <= 0 too: the source answers it (§3.9)
            }
            // A synchronous source has signalled by now: after its onNext (DONE) this demand is
            // spent and needs no record. Otherwise record it: a value made from an empty or
            // failed source may wait for it (a stale read only costs the atomic or).
            if (n > 0 && pending != DONE && (state & REQUESTED) == 0) {
                int prev = (int) STATE.getAndBitwiseOr(this, REQUESTED);
                if ((prev & (REQUESTED | HAS_VALUE | CANCELLED)) == HAS_VALUE) {
                    Object v = pending;
                    pending = DONE;
                    actual.onNext((R) v);
                    actual.onComplete();
                }
            }
        }

        @Override
        public void cancel() {
            int prev = (int) STATE.getAndBitwiseOr(this, CANCELLED);
            if ((prev & (REQUESTED | HAS_VALUE | CANCELLED)) == HAS_VALUE) {
                Object v = pending;
                pending = DONE;
                Dropped.discard(v, actual.currentContext());
            }
            Subscription up = s;
            if (up != null) {
                up.cancel();
            }
        }

        @Override
        @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
        public @Nullable Object scanUnsafe(Attr key) {
            if (key == Attr.PARENT) {
                return s;
            }
            if (key == Attr.ACTUAL) {
                return actual;
            }
            if (key == Attr.TERMINATED) {
                return pending != null;
            }
            if (key == Attr.CANCELLED) {
                return (state & CANCELLED) != 0;
            }
            return key == Attr.RUN_STYLE ? Attr.RunStyle.SYNC : null;
        }

        @Override
        public String stepName() {
            return "toMono(then)";
        }
    }
}
