package dev.senders.reactor;

import dev.senders.Env;
import dev.senders.Query;
import dev.senders.Sender;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;
import org.jspecify.annotations.Nullable;

/**
 * Conversions between senders and Reactor's {@code Mono}, {@code Flux} and any Reactive Streams
 * {@code Publisher}, with the mapping of the Reactive Streams boundary (docs/design.md):
 *
 * <table>
 * <caption>sender side and reactive side</caption>
 * <tr><th>sender side</th><th>reactive side</th></tr>
 * <tr><td>{@code connect} + {@code start}</td><td>{@code subscribe} (cold: each subscription connects anew)</td></tr>
 * <tr><td>stop requested on the receiver's token</td><td>{@code Subscription.cancel()} / {@code Disposable.dispose()}</td></tr>
 * <tr><td>{@code setValue(v)}</td><td>{@code onNext(v)} then {@code onComplete()}, after demand; {@code null} is an empty completion</td></tr>
 * <tr><td>{@code setError(e)}</td><td>{@code onError(e)}</td></tr>
 * <tr><td>{@code setStopped()} (not caused by the subscriber's cancel)</td><td>{@code onError(CancellationException)};
 *     an upstream {@code CancellationException} becomes {@code setStopped()}</td></tr>
 * <tr><td>{@code setValue(null)}</td><td>an empty {@code Mono} completion (or {@link #fromMonoOptional})</td></tr>
 * <tr><td>the receiver's env, {@link #CONTEXT}</td><td>the subscriber's {@code Context}</td></tr>
 * </table>
 *
 * <p><b>Context, both ways.</b> A sender run by {@link #toMono}/{@link #toFlux} sees the subscriber's
 * {@link ContextView} as {@code env().get(ReactorSenders.CONTEXT)}. A publisher run by
 * {@link #fromMono}/{@link #fromPublisher} is subscribed with a {@code CoreSubscriber} whose
 * {@code currentContext()} is the receiver's {@code CONTEXT} (so a key written with
 * {@code contextWrite} downstream of a Mono -> sender -> Mono sandwich reaches the inner Mono). The
 * receiver's whole {@link Env} travels in that context too, under a private key, so that a sender ->
 * Mono -> sender round trip keeps the outer env's queries (the stop token is always the inner
 * subscription's own).
 *
 * <p>Every method rejects {@code null} arguments with a {@link NullPointerException}.
 */
public final class ReactorSenders {

    /**
     * The Reactor {@link ContextView} of the subscriber that runs this sender (through
     * {@link #toMono}/{@link #toFlux}); {@link Context#empty()} when the receiver has none.
     */
    public static final Query<ContextView> CONTEXT = Query.of("reactor.context", Context.empty());

    /** The key under which a receiver's env rides in a Reactor context (private to the adapter). */
    private static final Object ENV_KEY = new Object() {
        @Override
        public String toString() {
            return "dev.senders.Env";
        }
    };

    private ReactorSenders() {}

    // ---- Publisher -> Sender ----

    /**
     * A sender that subscribes to {@code mono} each time it is started and completes with its value,
     * or with {@code setValue(null)} when the Mono completes empty (as {@code Mono.block()} returns
     * {@code null}). {@code onError(e)} is {@code setError(e)}, except {@code CancellationException}
     * which is {@code setStopped()}. A stop request on the receiver's token cancels the subscription
     * and completes with {@code setStopped()} on the stopping thread. The receiver is completed on
     * the thread of the Mono's signal otherwise.
     *
     * @param <T> the value type
     * @param mono the source, subscribed on each start
     * @return a sender of the Mono's value ({@code null} when it is empty)
     */
    public static <T> Sender<T> fromMono(Mono<? extends T> mono) {
        return new PublisherToSender<T, T>(Objects.requireNonNull(mono, "mono"), PublisherToSender.FIRST);
    }

    /**
     * As {@link #fromMono}, but spelled out: a value {@code v} is {@code Optional.of(v)}, empty is {@code Optional.empty()}.
     *
     * @param <T> the value type
     * @param mono the source, subscribed on each start
     * @return a sender of the Mono's value as an {@code Optional}
     */
    public static <T> Sender<Optional<T>> fromMonoOptional(Mono<? extends T> mono) {
        return new PublisherToSender<T, Optional<T>>(Objects.requireNonNull(mono, "mono"), PublisherToSender.OPTIONAL);
    }

    /**
     * A sender that subscribes to {@code publisher}, requests one element, and completes with the
     * first element (then cancels the subscription, like {@code Flux.next()}), or with
     * {@code setValue(null)} if the publisher completes empty. Errors, cancellation and stop as
     * {@link #fromMono}.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of the first element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromPublisher(Publisher<? extends T> publisher) {
        return new PublisherToSender<T, T>(Objects.requireNonNull(publisher, "publisher"), PublisherToSender.FIRST);
    }

    /**
     * Like {@code Flux.single()}: completes with the only element; a second element cancels the
     * subscription and completes with {@code setError(IndexOutOfBoundsException)}, an empty
     * publisher with {@code setError(NoSuchElementException)}. Requests unbounded.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of the only element
     */
    public static <T> Sender<T> fromPublisherSingle(Publisher<? extends T> publisher) {
        return new PublisherToSender<T, T>(Objects.requireNonNull(publisher, "publisher"), PublisherToSender.SINGLE);
    }

    /**
     * Completes with the last element when the publisher completes, {@code setValue(null)} if it
     * was empty (unlike {@code Flux.last()}, which errors: the adapter's rule is "empty is null").
     * Requests unbounded; earlier elements go to Reactor's discard hook.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of the last element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromPublisherLast(Publisher<? extends T> publisher) {
        return new PublisherToSender<T, T>(Objects.requireNonNull(publisher, "publisher"), PublisherToSender.LAST);
    }

    /**
     * Like {@code Flux.collectList()}: completes with a new mutable list of every element (empty if
     * none) when the publisher completes. Requests unbounded.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of a list of every element
     */
    public static <T> Sender<List<T>> fromPublisherAll(Publisher<? extends T> publisher) {
        return new PublisherToSender<T, List<T>>(Objects.requireNonNull(publisher, "publisher"), PublisherToSender.LIST);
    }

    /**
     * Like {@code Flux.then()}: requests unbounded, discards every element (to Reactor's discard
     * hook, as {@code ignoreElements()} does) and completes with {@code setValue(null)} when the
     * publisher completes.
     *
     * @param publisher the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code publisher} completes
     */
    public static Sender<Void> fromPublisherIgnoreElements(Publisher<?> publisher) {
        return new PublisherToSender<Object, Void>(Objects.requireNonNull(publisher, "publisher"), PublisherToSender.IGNORE);
    }

    // ---- Sender -> Publisher ----

    /**
     * A cold {@code Mono}: each subscription connects {@code sender} with a receiver whose env has
     * a fresh stop token (fired by {@code cancel()}) and the subscriber's {@link #CONTEXT}, and
     * starts it once {@code onSubscribe} returned. {@code setValue(v)} is {@code onNext(v)} +
     * {@code onComplete()} once requested ({@code null}: {@code onComplete()} alone);
     * {@code setError(e)} is {@code onError(e)}; {@code setStopped()} is
     * {@code onError(CancellationException)} unless the subscriber cancelled. Signals arrive on the
     * thread that completes the sender, or on the requesting thread when the value waited for demand.
     *
     * <p>Like {@code Mono.from(mono)}, {@code toMono(fromMono(m))} and {@code toMono(fromPublisher(m))}
     * of a {@code Mono m} return {@code m} itself (and {@link #toFlux} returns {@code Flux.from(m)}):
     * the round trip is the identity there. {@code then}/{@code uponError} stages composed after
     * the conversion ({@code fromMono(m).then(f)}) make one operator over {@code m} that applies
     * them to its signal, with exactly the signals above (an empty {@code m} reaches the stages as
     * {@code null}; R4); any other sender is adapted as described.
     * {@code fromMono(toMono(s))} is not
     * unwrapped: a stop request completes that sender stopped at once, without waiting for
     * {@code s}, which {@code s} itself would not do.
     *
     * @param <T> the value type
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Mono} of the sender's result
     */
    public static <T> Mono<T> toMono(Sender<? extends T> sender) {
        Mono<? extends T> original = unwrapMono(Objects.requireNonNull(sender, "sender"));
        if (original != null) {
            @SuppressWarnings("unchecked") // a Mono<? extends T> is a Mono<T>: it only produces
            Mono<T> m = (Mono<T>) original;
            return m; // as Mono.from(mono): no new operator, no assembly hook
        }
        Mono<T> staged = StagedMono.of(sender);
        return staged != null ? staged : SenderToMono.adapt(sender);
    }

    /**
     * As {@link #toMono}, as a {@code Flux} of zero or one element.
     *
     * @param <T> the value type
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Flux} of the sender's result
     */
    public static <T> Flux<T> toFlux(Sender<? extends T> sender) {
        Mono<? extends T> original = unwrapMono(Objects.requireNonNull(sender, "sender"));
        if (original != null) {
            return Flux.from(original); // Reactor's own Flux view of a Mono: same signals, same subscriber
        }
        Mono<T> staged = StagedMono.of(sender);
        if (staged != null) {
            return Flux.from(staged);
        }
        return Flux.from(SenderToMono.adapt(sender)); // Reactor's own Flux view of a Mono: no object per subscription
    }

    /**
     * The Mono that {@code sender} merely adapts, if converting it back is the identity:
     * {@code fromMono(m)} or {@code fromPublisher(m)} of a {@code Mono m}, with nothing composed
     * after it (R1). Value, empty, error, cancellation and the
     * subscriber's Context then reach {@code m} and come back exactly as the round trip delivers
     * them, minus the round trip's own artefacts: the spurious upstream cancel after the value,
     * and the fresh {@code CancellationException} that replaced an upstream one. {@code null}
     * for every other sender (a Flux source, the Optional/single/last/list modes, or any sender
     * composed after the conversion), which keeps the full adapter.
     */
    private static <T> @Nullable Mono<? extends T> unwrapMono(Sender<? extends T> sender) {
        if (sender instanceof PublisherToSender) {
            @SuppressWarnings("unchecked")
            PublisherToSender<?, ? extends T> ps = (PublisherToSender<?, ? extends T>) sender;
            return ps.originalMono();
        }
        return null;
    }

    // ---- env <-> context ----

    /**
     * The env of the receiver whose publisher this context was given to ({@link #contextOf}), or
     * {@code null}: what a sender run for a subscriber with this context sees for every query but
     * the stop token and {@link #CONTEXT} ({@link SenderToReactorSubscription#lookup}).
     */
    static @Nullable Env outerEnv(ContextView ctx) {
        return ctx.getOrDefault(ENV_KEY, null);
    }

    /**
     * The context a publisher run for a receiver sees: the receiver's {@link #CONTEXT} plus its env
     * under {@code ENV_KEY}. When the env is a {@link SenderToReactorSubscription}'s own (the sender runs
     * directly for a Reactor subscriber, nothing in between bound a query), that subscriber's
     * context is returned as it is: the subscription binds only the stop token and {@code CONTEXT},
     * which every sender run further in binds anew, so putting it under {@code ENV_KEY} would
     * change no lookup and cost a context per subscription.
     */
    static Context contextOf(Env env) {
        if (env instanceof SenderToReactorSubscription) {
            return ((SenderToReactorSubscription<?>) env).context();
        }
        ContextView cv = env.get(CONTEXT);
        return Context.of(cv == null ? Context.empty() : cv).put(ENV_KEY, env);
    }
}
