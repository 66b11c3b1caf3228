package dev.senders.rxjava3;

import dev.senders.Sender;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.reactivestreams.Publisher;

/**
 * Conversions between RxJava 3 reactive types and senders (DESIGN.md, "Reactive Streams
 * boundary").
 *
 * <p><b>RxJava to sender</b> ({@code from*}). Each returned sender is multi-shot and cold: every
 * {@code connect}+{@code start} subscribes to the source anew. Success is {@code setValue}; an
 * empty {@code Maybe}/{@code Flowable}/{@code Observable} completes {@code setValue(null)} (as
 * {@code Maybe.blockingGet()} returns {@code null}); {@code onError(e)} is {@code setError(e)},
 * except that a {@link java.util.concurrent.CancellationException} is {@code setStopped()}. A stop
 * request on the receiver's token disposes (cancels) the subscription, then completes
 * {@code setStopped()} on the requesting thread. Otherwise the receiver is completed on the thread
 * the source signals on. An error the source signals after the operation completed (stopped) is
 * undeliverable and goes to {@code RxJavaPlugins.onError}.
 *
 * <p><b>Sender to RxJava</b> ({@code to*}). Each subscription connects and starts the sender anew
 * with an env whose stop token is the subscription's own ({@code InplaceStopSource}); dispose or
 * cancel requests stop on it. {@code setStopped()} that the subscriber did not cause by disposing
 * is {@code onError(CancellationException)}. Errors the sender delivers after the dispose are
 * undeliverable and go to {@code RxJavaPlugins.onError} (wrapped in
 * {@code UndeliverableException} by RxJava). Signals are delivered on the thread that completes the
 * sender (for {@code toFlowable}, possibly the thread that calls {@code request}). Like RxJava's
 * own factories, the {@code to*} results pass through {@code RxJavaPlugins.onAssembly}.
 *
 * <p><b>Round trips.</b> Like {@code Single.wrap(single)}, {@code toSingle(fromSingle(s))},
 * {@code toMaybe(fromMaybe(m))} and {@code toCompletable(fromCompletable(c))} return the source
 * itself (through {@code onAssembly}): for these the round trip is the identity (decision R1 in
 * docs/decisions.md). Anything composed between the conversions keeps the full adapters, and so do
 * {@code toFlowable(fromFlowable(f))} (the sender takes only the first element, which {@code f}
 * itself does not) and {@code fromX(toX(sender))} (a stop request completes that sender stopped at
 * once, without waiting for the inner sender).
 */
public final class RxSenders {

    private RxSenders() {}

    // ---------------------------------------------------------------- RxJava -> sender

    /**
     * {@code onSuccess(v)} = {@code setValue(v)}.
     *
     * @param <T> the value type
     * @param single the source, subscribed on each start
     * @return a sender of the {@code Single}'s value
     */
    public static <T> Sender<T> fromSingle(Single<T> single) {
        return new SingleSender<>(Objects.requireNonNull(single, "single"));
    }

    /**
     * {@code onSuccess(v)} = {@code setValue(v)}; empty = {@code setValue(null)}.
     *
     * @param <T> the value type
     * @param maybe the source, subscribed on each start
     * @return a sender of the {@code Maybe}'s value ({@code null} when it is empty)
     */
    public static <T> Sender<T> fromMaybe(Maybe<T> maybe) {
        return MaybeSender.plain(Objects.requireNonNull(maybe, "maybe"));
    }

    /**
     * {@code onSuccess(v)} = {@code setValue(Optional.of(v))}; empty = {@code setValue(Optional.empty())}.
     *
     * @param <T> the value type
     * @param maybe the source, subscribed on each start
     * @return a sender of the {@code Maybe}'s value as an {@code Optional}
     */
    public static <T> Sender<Optional<T>> fromMaybeOptional(Maybe<T> maybe) {
        return MaybeSender.optional(Objects.requireNonNull(maybe, "maybe"));
    }

    /**
     * {@code onComplete()} = {@code setValue(null)}.
     *
     * @param completable the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code completable} completes
     */
    public static Sender<Void> fromCompletable(Completable completable) {
        return new CompletableSender(Objects.requireNonNull(completable, "completable"));
    }

    /**
     * The first element (requests 1, cancels on it), like {@code firstElement()}; empty =
     * {@code setValue(null)}.
     *
     * @param <T> the element type
     * @param flowable the source, subscribed on each start
     * @return a sender of the first element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromFlowable(Flowable<T> flowable) {
        return new PublisherSender<T, T>(Objects.requireNonNull(flowable, "flowable"), Take.FIRST);
    }

    /**
     * The only element, like {@code singleElement()}: a second element cancels and fails with
     * {@link IllegalArgumentException}; empty = {@code setValue(null)}.
     *
     * @param <T> the element type
     * @param flowable the source, subscribed on each start
     * @return a sender of the only element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromFlowableSingle(Flowable<T> flowable) {
        return new PublisherSender<T, T>(Objects.requireNonNull(flowable, "flowable"), Take.SINGLE);
    }

    /**
     * The last element, like {@code lastElement()}; empty = {@code setValue(null)}.
     *
     * @param <T> the element type
     * @param flowable the source, subscribed on each start
     * @return a sender of the last element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromFlowableLast(Flowable<T> flowable) {
        return new PublisherSender<T, T>(Objects.requireNonNull(flowable, "flowable"), Take.LAST);
    }

    /**
     * All elements as an unmodifiable list, like {@code toList()}; empty = empty list.
     *
     * @param <T> the element type
     * @param flowable the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     */
    public static <T> Sender<List<T>> fromFlowableList(Flowable<T> flowable) {
        return new PublisherSender<T, List<T>>(Objects.requireNonNull(flowable, "flowable"), Take.LIST);
    }

    /**
     * Only termination, like {@code ignoreElements()}: completion = {@code setValue(null)}.
     *
     * @param flowable the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code flowable} completes
     */
    public static Sender<Void> fromFlowableIgnoreElements(Flowable<?> flowable) {
        return new PublisherSender<Object, Void>(
                Objects.requireNonNull(flowable, "flowable").cast(Object.class), Take.IGNORE);
    }

    /**
     * The first element of any Reactive Streams {@link Publisher}, through a strictly
     * spec-compliant {@code Subscriber} (§2.x rules; see the class documentation of the
     * implementation for how rule-breaking publishers are reported). Otherwise as
     * {@link #fromFlowable}.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of the first element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromPublisher(Publisher<T> publisher) {
        return new PublisherSender<T, T>(Objects.requireNonNull(publisher, "publisher"), Take.FIRST);
    }

    /**
     * All elements of a {@link Publisher} as an unmodifiable list; empty = empty list.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     */
    public static <T> Sender<List<T>> fromPublisherList(Publisher<T> publisher) {
        return new PublisherSender<T, List<T>>(Objects.requireNonNull(publisher, "publisher"), Take.LIST);
    }

    /**
     * The first element, then the upstream is disposed, like {@code firstElement()}; empty = null.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of the first element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromObservable(Observable<T> observable) {
        return new ObservableSender<T, T>(Objects.requireNonNull(observable, "observable"), Take.FIRST);
    }

    /**
     * The only element, like {@code singleElement()}; a second one = IllegalArgumentException; empty = null.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of the only element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromObservableSingle(Observable<T> observable) {
        return new ObservableSender<T, T>(Objects.requireNonNull(observable, "observable"), Take.SINGLE);
    }

    /**
     * The last element, like {@code lastElement()}; empty = null.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of the last element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromObservableLast(Observable<T> observable) {
        return new ObservableSender<T, T>(Objects.requireNonNull(observable, "observable"), Take.LAST);
    }

    /**
     * All elements as an unmodifiable list, like {@code toList()}; empty = empty list.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     */
    public static <T> Sender<List<T>> fromObservableList(Observable<T> observable) {
        return new ObservableSender<T, List<T>>(Objects.requireNonNull(observable, "observable"), Take.LIST);
    }

    /**
     * Only termination, like {@code ignoreElements()}: completion = {@code setValue(null)}.
     *
     * @param observable the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code observable} completes
     */
    public static Sender<Void> fromObservableIgnoreElements(Observable<?> observable) {
        return new ObservableSender<Object, Void>(
                Objects.requireNonNull(observable, "observable").cast(Object.class), Take.IGNORE);
    }

    // ---------------------------------------------------------------- sender -> RxJava

    /**
     * {@code setValue(v)} = {@code onSuccess(v)}; {@code setValue(null)} =
     * {@code onError(NoSuchElementException)} (RxJava has no null values).
     *
     * @param <T> the value type
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Single} of the sender's value
     */
    public static <T> Single<T> toSingle(Sender<T> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof SingleSender && ((SingleSender<T>) sender).source instanceof Single) {
            return RxJavaPlugins.onAssembly((Single<T>) ((SingleSender<T>) sender).source); // as Single.wrap
        }
        return RxJavaPlugins.onAssembly(new SenderSingle<>(sender));
    }

    /**
     * {@code setValue(v)} = {@code onSuccess(v)}; {@code setValue(null)} = {@code onComplete()}.
     *
     * @param <T> the value type
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Maybe} of the sender's value
     */
    public static <T> Maybe<T> toMaybe(Sender<T> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof MaybeSender) {
            Maybe<T> original = ((MaybeSender<?, T>) sender).originalMaybe();
            if (original != null) {
                return RxJavaPlugins.onAssembly(original); // as Maybe.wrap
            }
        }
        return RxJavaPlugins.onAssembly(new SenderMaybe<>(sender));
    }

    /**
     * Any value = {@code onComplete()} (the value is ignored).
     *
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Completable} of the sender's completion
     */
    public static Completable toCompletable(Sender<?> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof CompletableSender && ((CompletableSender) sender).source instanceof Completable) {
            return RxJavaPlugins.onAssembly((Completable) ((CompletableSender) sender).source); // as Completable.wrap
        }
        return RxJavaPlugins.onAssembly(new SenderCompletable(sender));
    }

    /**
     * 0 or 1 element: {@code setValue(v)} = {@code onNext(v)} (only once requested) then
     * {@code onComplete()}; {@code setValue(null)} = {@code onComplete()}. {@code cancel()}
     * requests stop. The returned {@code Flowable} is a Reactive Streams {@code Publisher}.
     *
     * @param <T> the value type
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Flowable} of the sender's value
     */
    public static <T> Flowable<T> toFlowable(Sender<T> sender) {
        return RxJavaPlugins.onAssembly(new SenderFlowable<>(Objects.requireNonNull(sender, "sender")));
    }
}
