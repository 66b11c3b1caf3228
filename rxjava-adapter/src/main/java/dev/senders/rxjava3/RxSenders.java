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
 * Conversions between RxJava 3 reactive types and senders (the Reactive Streams boundary of
 * docs/design.md).
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
 * with an env whose stop token is the subscription's own (the subscription object itself); dispose or
 * cancel requests stop on it. {@code setStopped()} that the subscriber did not cause by disposing
 * is {@code onError(CancellationException)}. Errors the sender delivers after the dispose are
 * undeliverable and go to {@code RxJavaPlugins.onError} (wrapped in
 * {@code UndeliverableException} by RxJava). Signals are delivered on the thread that completes the
 * sender (for {@code toFlowable}, possibly the thread that calls {@code request}). Like RxJava's
 * own factories, the {@code to*} results pass through {@code RxJavaPlugins.onAssembly}.
 *
 * <p><b>Round trips.</b> Like {@code Single.wrap(single)}, {@code toSingle(fromSingle(s))},
 * {@code toMaybe(fromMaybe(m))} and {@code toCompletable(fromCompletable(c))} return the source
 * itself (through {@code onAssembly}): for these the round trip is the identity (R1); with
 * {@code then}/{@code uponError} stages between them
 * ({@code toSingle(fromSingle(s).then(f))}) they are one observer over the source that applies the
 * stages to its signal, with the signals the adapters give (R4). Anything else composed
 * between the conversions keeps the full adapters, and so do
 * {@code toFlowable(fromFlowable(f))} (the sender takes only the first element, which {@code f}
 * itself does not) and {@code fromSingle(toSingle(sender))}/{@code fromCompletable(toCompletable(sender))}
 * ({@code null} and the value change on the way). {@code fromFlowable}, {@code fromPublisher},
 * {@code fromFlowableSingle}, {@code fromFlowableLast} and {@code fromMaybe} of a {@code toFlowable}/
 * {@code toMaybe} result (zero or one element either way) return the inner sender itself, as the
 * pair is the identity (RS11): it is then connected with the outer receiver's env, so a Reactor
 * {@code Context} written downstream crosses the RxJava leg, and a stop request is answered as the inner sender answers it.
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
        return new SingleToSender<>(Objects.requireNonNull(single, "single"));
    }

    /**
     * {@code onSuccess(v)} = {@code setValue(v)}; empty = {@code setValue(null)}.
     *
     * @param <T> the value type
     * @param maybe the source, subscribed on each start
     * @return a sender of the {@code Maybe}'s value ({@code null} when it is empty)
     */
    public static <T> Sender<T> fromMaybe(Maybe<T> maybe) {
        if (maybe instanceof SenderToMaybe) {
            return ((SenderToMaybe<T>) maybe).sender(); // the library's own Maybe: fromMaybe(toMaybe(s)) is s (RS11)
        }
        return MaybeToSender.plain(Objects.requireNonNull(maybe, "maybe"));
    }

    /**
     * {@code onSuccess(v)} = {@code setValue(Optional.of(v))}; empty = {@code setValue(Optional.empty())}.
     *
     * @param <T> the value type
     * @param maybe the source, subscribed on each start
     * @return a sender of the {@code Maybe}'s value as an {@code Optional}
     */
    public static <T> Sender<Optional<T>> fromMaybeOptional(Maybe<T> maybe) {
        return MaybeToSender.optional(Objects.requireNonNull(maybe, "maybe"));
    }

    /**
     * {@code onComplete()} = {@code setValue(null)}.
     *
     * @param completable the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code completable} completes
     */
    public static Sender<Void> fromCompletable(Completable completable) {
        return new CompletableToSender(Objects.requireNonNull(completable, "completable"));
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
        return FlowableToSender.of(Objects.requireNonNull(flowable, "flowable"), RxToSenderOperation.FIRST);
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
        return FlowableToSender.of(Objects.requireNonNull(flowable, "flowable"), RxToSenderOperation.SINGLE);
    }

    /**
     * The last element, like {@code lastElement()}; empty = {@code setValue(null)}.
     *
     * @param <T> the element type
     * @param flowable the source, subscribed on each start
     * @return a sender of the last element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromFlowableLast(Flowable<T> flowable) {
        return FlowableToSender.of(Objects.requireNonNull(flowable, "flowable"), RxToSenderOperation.LAST);
    }

    /**
     * All elements as an unmodifiable list, like {@code toList()}; empty = empty list.
     *
     * @param <T> the element type
     * @param flowable the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     */
    public static <T> Sender<List<T>> fromFlowableList(Flowable<T> flowable) {
        return new FlowableToSender<T, List<T>>(Objects.requireNonNull(flowable, "flowable"), RxToSenderOperation.LIST);
    }

    /**
     * Only termination, like {@code ignoreElements()}: completion = {@code setValue(null)}.
     *
     * @param flowable the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code flowable} completes
     */
    @SuppressWarnings("unchecked") // only termination is read: any element type is an Object
    public static Sender<Void> fromFlowableIgnoreElements(Flowable<?> flowable) {
        return new FlowableToSender<Object, Void>(
                (Flowable<Object>) Objects.requireNonNull(flowable, "flowable"), RxToSenderOperation.IGNORE);
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
        return FlowableToSender.of(Objects.requireNonNull(publisher, "publisher"), RxToSenderOperation.FIRST);
    }

    /**
     * All elements of a {@link Publisher} as an unmodifiable list; empty = empty list.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     */
    public static <T> Sender<List<T>> fromPublisherList(Publisher<T> publisher) {
        return new FlowableToSender<T, List<T>>(Objects.requireNonNull(publisher, "publisher"), RxToSenderOperation.LIST);
    }

    /**
     * The first element, then the upstream is disposed, like {@code firstElement()}; empty = null.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of the first element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromObservable(Observable<T> observable) {
        return new ObservableToSender<T, T>(Objects.requireNonNull(observable, "observable"), RxToSenderOperation.FIRST);
    }

    /**
     * The only element, like {@code singleElement()}; a second one = IllegalArgumentException; empty = null.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of the only element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromObservableSingle(Observable<T> observable) {
        return new ObservableToSender<T, T>(Objects.requireNonNull(observable, "observable"), RxToSenderOperation.SINGLE);
    }

    /**
     * The last element, like {@code lastElement()}; empty = null.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of the last element ({@code null} when there is none)
     */
    public static <T> Sender<T> fromObservableLast(Observable<T> observable) {
        return new ObservableToSender<T, T>(Objects.requireNonNull(observable, "observable"), RxToSenderOperation.LAST);
    }

    /**
     * All elements as an unmodifiable list, like {@code toList()}; empty = empty list.
     *
     * @param <T> the element type
     * @param observable the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     */
    public static <T> Sender<List<T>> fromObservableList(Observable<T> observable) {
        return new ObservableToSender<T, List<T>>(Objects.requireNonNull(observable, "observable"), RxToSenderOperation.LIST);
    }

    /**
     * Only termination, like {@code ignoreElements()}: completion = {@code setValue(null)}.
     *
     * @param observable the source, subscribed on each start
     * @return a sender that completes with {@code null} when {@code observable} completes
     */
    @SuppressWarnings("unchecked") // only termination is read: any element type is an Object
    public static Sender<Void> fromObservableIgnoreElements(Observable<?> observable) {
        return new ObservableToSender<Object, Void>(
                (Observable<Object>) Objects.requireNonNull(observable, "observable"), RxToSenderOperation.IGNORE);
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
    @SuppressWarnings("unchecked") // the identity round trip: the source of a SingleToSender<T> is a Single<T>
    public static <T> Single<T> toSingle(Sender<T> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof SingleToSender && ((SingleToSender<T>) sender).source instanceof Single) {
            return RxJavaPlugins.onAssembly((Single<T>) ((SingleToSender<T>) sender).source); // as Single.wrap
        }
        Object staged = RxStaged.of(sender, SenderToRxSubscription.SINGLE);
        return staged != null ? (Single<T>) staged : RxJavaPlugins.onAssembly(new SenderToSingle<>(sender));
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
        if (sender instanceof MaybeToSender) {
            Maybe<T> original = ((MaybeToSender<?, T>) sender).originalMaybe();
            if (original != null) {
                return RxJavaPlugins.onAssembly(original); // as Maybe.wrap
            }
        }
        @SuppressWarnings("unchecked") // the stages' result is a T
        Maybe<T> staged = (Maybe<T>) RxStaged.of(sender, SenderToRxSubscription.MAYBE);
        return staged != null ? staged : RxJavaPlugins.onAssembly(new SenderToMaybe<>(sender));
    }

    /**
     * Any value = {@code onComplete()} (the value is ignored).
     *
     * @param sender the work, connected and started per subscription
     * @return a cold {@code Completable} of the sender's completion
     */
    public static Completable toCompletable(Sender<?> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof CompletableToSender && ((CompletableToSender) sender).source instanceof Completable) {
            return RxJavaPlugins.onAssembly((Completable) ((CompletableToSender) sender).source); // as Completable.wrap
        }
        Object staged = RxStaged.of(sender, SenderToRxSubscription.COMPLETABLE);
        return staged != null ? (Completable) staged : RxJavaPlugins.onAssembly(new SenderToCompletable(sender));
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
        return RxJavaPlugins.onAssembly(new SenderToFlowable<>(Objects.requireNonNull(sender, "sender")));
    }
}
