package dev.senders.rxjava3;

import dev.senders.Sender;
import dev.senders.internal.Trampoline;
import dev.senders.internal.rs.SenderSubscription;
import dev.senders.internal.signal.Stages;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.CompletableSource;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.MaybeSource;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.core.SingleSource;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code toSingle} / {@code toMaybe} / {@code toCompletable} of {@code fromSingle(s)},
 * {@code fromMaybe(m)} or {@code fromCompletable(c)} followed by {@code then} / {@code uponError}
 * stages: one observer that applies the sender chain's stages to the source's signal, instead of a
 * sender subscription on top of a source operation (decision R4 in docs/decisions.md). The signals
 * are the round trip's: the source's value (a {@code Maybe}'s or {@code Completable}'s completion:
 * {@code null}) or error goes through the stages, and their result reaches the consumer as
 * {@link SenderToRxSubscription}'s table says ({@code null}: a {@code Single}'s
 * {@code NoSuchElementException}, a {@code Maybe}'s {@code onComplete()}); a stage that throws is an
 * {@code onError}. The consumer gets the source's own {@code Disposable}, as RxJava's {@code map}
 * passes it on. Chains with {@code uponStopped} or {@code stoppedAsError} keep the full adapter.
 * Nested crossings are one observer applying the inner stages, the inner consumer's rule for
 * {@code null}, then the outer stages.
 *
 * <p>Signals reach the consumer on the thread on which the source signals.
 *
 * <p>Stack safety of crossings that do not collapse (an RxJava operator between the levels):
 * subscribing to a source other than one whose subscription only calls it ({@code just},
 * {@code fromSupplier}, {@code fromCallable}, {@code error}, {@code never}, {@code complete},
 * {@code fromAction}: subscribing them subscribes nothing else) is a frame of the per-thread
 * {@link Trampoline}, queued beyond its depth; subscribed {@link Trampoline#BREAK_DEPTH} or more
 * frames deep, the observer hands its consumer a {@link TrampolinedObserver}, which breaks the
 * {@code onSubscribe}, signal and {@code dispose} paths. A crossing of such a source, or one near
 * the top of the stack, runs exactly as without nesting.
 */
final class RxStaged {

    private RxStaged() {}

    /** A source's kind, as {@link SenderToRxSubscription}'s consumers are numbered. */
    private static final int SINGLE = SenderToRxSubscription.SINGLE, MAYBE = SenderToRxSubscription.MAYBE,
            COMPLETABLE = SenderToRxSubscription.COMPLETABLE;

    /**
     * The fused {@code Single}, {@code Maybe} or {@code Completable} (as {@code consumer} says) for
     * {@code sender} if it is a chain of {@code then}/{@code uponError} stages on a plain
     * {@code fromSingle}, {@code fromMaybe} or {@code fromCompletable}; else {@code null}.
     */
    static @Nullable Object of(Sender<?> sender, int consumer) {
        if (!(sender instanceof Stages.Chain)) {
            return null;
        }
        Stages.Chain chain = (Stages.Chain) sender;
        Stages stages = chain.stages();
        if (!stages.stoppedPassesThrough()) {
            return null;
        }
        Sender<?> from = chain.stagesSource();
        Object source;
        int kind;
        if (from instanceof SingleToSender) {
            source = ((SingleToSender<?>) from).source;
            kind = SINGLE;
        } else if (from instanceof MaybeToSender && !((MaybeToSender<?, ?>) from).isOptional()) {
            source = ((MaybeToSender<?, ?>) from).source;
            kind = MAYBE;
        } else if (from instanceof CompletableToSender) {
            source = ((CompletableToSender) from).source;
            kind = COMPLETABLE;
        } else {
            return null;
        }
        Plan plan;
        if (source instanceof Fused) { // a crossing of a crossing: one observer
            Fused inner = (Fused) source;
            Plan p = inner.plan();
            plan = new Plan(p.source, p.kind, p.stages.andThen(emptyRule(inner.consumer())).andThen(stages));
        } else {
            plan = new Plan(source, kind, stages);
        }
        if (consumer == SINGLE) {
            return RxJavaPlugins.onAssembly(new StagedSingle<>(plan));
        }
        return consumer == MAYBE ? RxJavaPlugins.onAssembly(new StagedMaybe<>(plan))
                : RxJavaPlugins.onAssembly(new StagedCompletable(plan));
    }

    /**
     * What a consumer of this kind makes of a value, as a stage, for the next crossing's
     * {@code from*}: a {@code Single} fails on {@code null}, a {@code Completable} forgets the value,
     * a {@code Maybe}'s empty completion is {@code null} again.
     */
    private static Stages emptyRule(int consumer) {
        Function<Object, @Nullable Object> rule = consumer == SINGLE ? RxStaged::nonNullForSingle
                : consumer == COMPLETABLE ? v -> null : v -> v;
        return new Stages(new byte[] {Stages.ON_VALUE}, new Object[] {rule});
    }

    private static Object nonNullForSingle(@Nullable Object v) {
        if (v == null) {
            throw new NoSuchElementException(SenderToRxSubscription.NULL_FOR_SINGLE);
        }
        return v;
    }

    /**
     * The classes of RxJava's sources whose subscription only calls them (or signals at once):
     * subscribing one nests no other subscription. RxJava marks only some of them (its
     * {@code Supplier} fusion interface); the others are the classes its public factories return,
     * taken once without naming an internal class (decision RX11), when the first fused plan is
     * built: a conversion that does not fuse never loads them. A kind whose assembly hook is
     * installed at that moment is left out (the hook may return a wrapper that subscribes
     * anything): its sources take the trampoline path.
     */
    private static final class CalledSources {
        static final List<Class<?>> CLASSES = calledSources();

        private CalledSources() {}
    }

    private static List<Class<?>> calledSources() {
        List<Class<?>> classes = new ArrayList<>();
        Exception e = new Exception("not thrown: a source's class is taken");
        if (RxJavaPlugins.getOnSingleAssembly() == null) {
            for (Single<?> s : List.of(Single.just(0), Single.fromSupplier(() -> 0), Single.fromCallable(() -> 0),
                    Single.error(e), Single.never())) {
                classes.add(s.getClass());
            }
        }
        if (RxJavaPlugins.getOnMaybeAssembly() == null) {
            classes.add(Maybe.error(e).getClass());
            classes.add(Maybe.never().getClass());
        }
        if (RxJavaPlugins.getOnCompletableAssembly() == null) {
            for (Completable c : List.of(Completable.complete(), Completable.error(e), Completable.never(),
                    Completable.fromAction(() -> { }), Completable.fromRunnable(() -> { }),
                    Completable.fromCallable(() -> 0), Completable.fromSupplier(() -> 0))) {
                classes.add(c.getClass());
            }
        }
        return List.copyOf(classes);
    }

    /** Whether subscribing to {@code source} only calls it: no other subscription nests inside. */
    private static boolean calledSource(Object source) {
        return source instanceof io.reactivex.rxjava3.functions.Supplier || CalledSources.CLASSES.contains(source.getClass());
    }

    /** What a shell subscribes: the source, its kind, and the stages. Immutable. */
    private static final class Plan {
        final Object source;
        final int kind;
        final Stages stages;
        /** {@link RxStaged#calledSource}: the subscription needs no trampoline frame. */
        final boolean called;

        Plan(Object source, int kind, Stages stages) {
            this.source = source;
            this.kind = kind;
            this.stages = stages;
            this.called = calledSource(source);
        }

        void subscribe(Object actual, int consumer) {
            if (called) {
                RxStaged.subscribe(source, kind, new StagedObserver(actual, consumer, stages));
            } else {
                Trampoline.runFrame(Plan::subscribeAt, this, new StagedObserver(actual, consumer, stages));
            }
        }

        /** The subscription of a source that may nest others, in a trampoline frame {@code depth} deep. */
        private static void subscribeAt(Plan p, StagedObserver observer, int depth) {
            if (depth < Trampoline.BREAK_DEPTH) {
                RxStaged.subscribe(p.source, p.kind, observer);
                return;
            }
            TrampolinedObserver broken = new TrampolinedObserver(observer.actual, observer.consumer);
            broken.subscribeActual();
            if (!broken.isDisposed()) {
                RxStaged.subscribe(p.source, p.kind, new StagedObserver(broken, observer.consumer, observer.stages));
            }
        }
    }

    /** The three shells: their plan, and which consumer they are. */
    private interface Fused {
        Plan plan();

        int consumer();
    }

    /** One subscription: the observer given to the source. */
    static final class StagedObserver implements SingleObserver<Object>, MaybeObserver<Object>,
            CompletableObserver, Stages.Sink {
        private final Object actual;
        private final int consumer;
        private final Stages stages;

        StagedObserver(Object actual, int consumer, Stages stages) {
            this.actual = actual;
            this.consumer = consumer;
            this.stages = stages;
        }

        @Override
        public void onSubscribe(Disposable d) {
            SenderToRxSubscription.signal(actual, consumer, SenderSubscription.ON_SUBSCRIBE, null, d);
        }

        @Override
        public void onSuccess(Object value) {
            stages.apply(Stages.VALUE, value, this);
        }

        @Override
        public void onComplete() {
            stages.apply(Stages.VALUE, null, this);
        }

        @Override
        public void onError(Throwable error) {
            stages.apply(Stages.ERROR, error, this);
        }

        @Override
        public void value(@Nullable Object value) {
            SenderToRxSubscription.signal(actual, consumer,
                    value == null ? SenderSubscription.ON_COMPLETE : SenderSubscription.ON_NEXT, value, this);
        }

        @Override
        public void error(Throwable error) {
            SenderToRxSubscription.signal(actual, consumer, SenderSubscription.ON_ERROR, error, this);
        }

        @Override
        public void stopped() { // not reached: no stage makes a stop from a value or an error
            error(new CancellationException("stopped"));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // the source is of the kind recorded with it
    private static void subscribe(Object source, int kind, StagedObserver observer) {
        if (kind == SINGLE) {
            ((SingleSource) source).subscribe(observer);
        } else if (kind == MAYBE) {
            ((MaybeSource) source).subscribe(observer);
        } else {
            ((CompletableSource) source).subscribe(observer);
        }
    }

    static final class StagedSingle<R> extends Single<R> implements Fused {
        private final Plan plan;

        StagedSingle(Plan plan) {
            this.plan = plan;
        }

        @Override
        protected void subscribeActual(SingleObserver<? super R> observer) {
            plan.subscribe(observer, SINGLE);
        }

        @Override
        public Plan plan() {
            return plan;
        }

        @Override
        public int consumer() {
            return SINGLE;
        }
    }

    static final class StagedMaybe<R> extends Maybe<R> implements Fused {
        private final Plan plan;

        StagedMaybe(Plan plan) {
            this.plan = plan;
        }

        @Override
        protected void subscribeActual(MaybeObserver<? super R> observer) {
            plan.subscribe(observer, MAYBE);
        }

        @Override
        public Plan plan() {
            return plan;
        }

        @Override
        public int consumer() {
            return MAYBE;
        }
    }

    static final class StagedCompletable extends Completable implements Fused {
        private final Plan plan;

        StagedCompletable(Plan plan) {
            this.plan = plan;
        }

        @Override
        protected void subscribeActual(CompletableObserver observer) {
            plan.subscribe(observer, COMPLETABLE);
        }

        @Override
        public Plan plan() {
            return plan;
        }

        @Override
        public int consumer() {
            return COMPLETABLE;
        }
    }
}
