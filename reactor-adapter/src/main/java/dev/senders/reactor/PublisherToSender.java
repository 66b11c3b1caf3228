package dev.senders.reactor;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.rs.PublisherOperation;
import java.util.List;
import java.util.Objects;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@link ReactorSenders#fromMono}, {@link ReactorSenders#fromPublisher} and their variants: a
 * multi-shot sender whose every start subscribes a {@link CoreSubscriber} to the publisher. The
 * subscriber is a shell over {@link PublisherOperation}, which holds the whole protocol (modes,
 * demand, stop, the rules the publisher is held to, the state word); this class adapts the
 * Reactive Streams interfaces and routes what cannot be delivered to Reactor's hooks, with the
 * receiver's context ({@link Dropped}): errors to {@code onErrorDropped}, elements after the
 * publisher terminated to {@code onNextDropped}, elements given up to {@code onDiscard}
 * ({@link PublisherOperation#DISCARDS}: a stop hands what SINGLE/LAST/LIST had buffered to the
 * discard hook even if the publisher never signals again).
 *
 * <p>The subscriber's {@code currentContext()} is the receiver's {@link ReactorSenders#CONTEXT}
 * with the receiver's env riding along ({@link ReactorSenders#contextOf}).
 */
final class PublisherToSender<T, R> implements Sender<R> {

    /** fromMono / fromPublisher. */
    static final int FIRST = PublisherOperation.FIRST | PublisherOperation.DISCARDS;
    /** fromMonoOptional. */
    static final int OPTIONAL = FIRST | PublisherOperation.OPTIONAL;
    /** fromPublisherSingle: unbounded demand, like {@code Flux.single()}. */
    static final int SINGLE = PublisherOperation.SINGLE | PublisherOperation.EMPTY_FAILS | PublisherOperation.DISCARDS;
    /** fromPublisherLast. */
    static final int LAST = PublisherOperation.LAST | PublisherOperation.DISCARDS;
    /** fromPublisherAll: a fresh mutable list. */
    static final int LIST = PublisherOperation.LIST | PublisherOperation.DISCARDS;
    /** fromPublisherIgnoreElements. */
    static final int IGNORE = PublisherOperation.IGNORE | PublisherOperation.DISCARDS;

    private final Publisher<? extends T> source;
    private final int mode;

    PublisherToSender(Publisher<? extends T> source, int mode) {
        this.source = source;
        this.mode = mode;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        return new Operation<T, R>(source, mode, Objects.requireNonNull(receiver, "receiver"));
    }

    /** The publisher this sender subscribes to (for {@link Scannable} parents). */
    Publisher<? extends T> source() {
        return source;
    }

    /**
     * The source when this sender is {@code fromMono(m)}/{@code fromPublisher(m)} of a
     * {@code Mono}: one value or empty is exactly what {@code m} itself signals, so
     * {@link ReactorSenders#toMono} can return {@code m}. {@code null} otherwise.
     */
    @SuppressWarnings("unchecked") // FIRST mode: R is T
    @Nullable Mono<? extends R> originalMono() {
        return mode == FIRST && source instanceof Mono ? (Mono<? extends R>) source : null;
    }

    @Override
    public String toString() {
        return "ReactorSenders.fromPublisher(" + source + ")";
    }

    /**
     * The subscriber. Also the work of {@link ReactorScopes#spawn} ({@link PublisherToSpawnedWork}), whose
     * {@code Disposable.dispose()} is {@link #dispose()}.
     */
    static final class Operation<T, R> extends PublisherOperation<T, R> implements CoreSubscriber<T>, Scannable {
        private final Context context;

        Operation(Publisher<? extends T> source, int mode, Receiver<? super R> receiver) {
            super(source, receiver, mode);
            this.context = ReactorSenders.contextOf(receiver.env());
        }

        @Override
        public Context currentContext() {
            return context;
        }

        @Override
        public void onSubscribe(Subscription s) {
            upstreamSubscribe(s);
        }

        /**
         * A stop request from outside the receiver's token ({@code ReactorScopes.spawn}'s
         * {@code Disposable}): cancel upstream, then {@code setStopped()} on this thread, the stop
         * callback closed first. Called only after {@code start()} returned.
         */
        void dispose() {
            run();
        }

        /** Whether the receiver's completion is claimed (terminated, stopped or disposed). */
        boolean isTerminated() {
            return isDone();
        }

        @Override
        @SuppressWarnings("unchecked") // the source is a Publisher<? extends T>
        protected void upstream(int what, @Nullable Object subscription, long n) {
            switch (what) {
                case SUBSCRIBE -> ReactorSubscribe.subscribe((Publisher<?>) source(), this);
                case REQUEST -> ((Subscription) Nulls.nonNull(subscription)).request(n); // set before REQUEST is possible
                default -> ((Subscription) Nulls.nonNull(subscription)).cancel();
            }
        }

        @Override
        protected void dropError(Throwable error) {
            Dropped.error(error, context);
        }

        @Override
        protected void dropNext(Object element) {
            Dropped.next(element, context);
        }

        @Override
        protected void discard(Object element) {
            Dropped.discard(element, context);
        }

        @Override
        protected void discardAll(List<?> elements) {
            Dropped.discardAll(elements, context);
        }

        @Override
        @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
        public @Nullable Object scanUnsafe(Attr key) {
            if (key == Attr.PARENT) {
                return upstream();
            }
            if (key == Attr.CANCELLED) {
                return isCancelled();
            }
            if (key == Attr.TERMINATED) {
                return isDone() && !isCancelled();
            }
            if (key == Attr.PREFETCH) {
                long n = demand();
                return n >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
            }
            if (key == Attr.RUN_STYLE) {
                return Attr.RunStyle.SYNC;
            }
            return null; // ACTUAL: the downstream is a receiver, not a subscriber
        }

        @Override
        public String stepName() {
            return "fromPublisher";
        }
    }
}
