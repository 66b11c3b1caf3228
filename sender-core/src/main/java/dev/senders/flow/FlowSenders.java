package dev.senders.flow;

import dev.senders.Sender;
import dev.senders.internal.rs.PublisherOperation;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * Conversions between senders and {@link java.util.concurrent.Flow} (the JDK's copy of the
 * Reactive Streams interfaces), with the mapping of the Reactive Streams boundary (docs/design.md):
 *
 * <table>
 * <caption>sender side and Flow side</caption>
 * <tr><th>sender side</th><th>Flow side</th></tr>
 * <tr><td>{@code connect} + {@code start}</td><td>{@code subscribe} (cold: each subscription connects anew)</td></tr>
 * <tr><td>stop requested on the receiver's token</td><td>{@code Subscription.cancel()}</td></tr>
 * <tr><td>{@code setValue(v)}</td><td>{@code onNext(v)} then {@code onComplete()}, only after {@code request(n)};
 *     {@code setValue(null)} is {@code onComplete()} alone</td></tr>
 * <tr><td>{@code setError(e)}</td><td>{@code onError(e)}</td></tr>
 * <tr><td>{@code setStopped()} not caused by the subscriber's cancel</td><td>{@code onError(CancellationException)};
 *     and the reverse: an upstream {@code CancellationException} is {@code setStopped()}</td></tr>
 * <tr><td>{@code setValue(null)}</td><td>an empty publisher (no element, {@code onComplete()})</td></tr>
 * </table>
 *
 * <p>Everything that cannot be delivered (an error after the subscriber cancelled, a sender that
 * completes twice, a subscriber that throws, a publisher that signals after it terminated) goes
 * to {@link dev.senders.Hooks#onErrorDropped}. Every publisher and subscriber made here passes the
 * Reactive Streams TCK ({@code tck-tests}: {@code FlowPublisherVerification},
 * {@code FlowSubscriberBlackboxVerification}, {@code FlowSubscriberWhiteboxVerification}).
 *
 * <p>Every method rejects {@code null} arguments with a {@link NullPointerException}.
 */
public final class FlowSenders {

    private FlowSenders() {}

    /**
     * A cold {@link Flow.Publisher} of zero or one element. Each {@code subscribe} connects
     * {@code sender} with a receiver whose env carries only a fresh stop token (the subscription's
     * own, requested by {@code cancel()}), calls
     * {@code onSubscribe}, then starts the operation (unless the subscriber cancelled inside
     * {@code onSubscribe}: then the operation is dropped unstarted and the sender never runs).
     *
     * <p>{@code setValue(v)} is {@code onNext(v)} then {@code onComplete()}, once at least one
     * element was requested; {@code setValue(null)} is {@code onComplete()};
     * {@code setError(e)} is {@code onError(e)}; {@code setStopped()} is
     * {@code onError(CancellationException)} unless the subscriber cancelled (then nothing is
     * signalled). {@code request(n <= 0)} is {@code onError(IllegalArgumentException)} and requests
     * stop (§3.9).
     *
     * <p>Threads: signals are delivered on the thread that completes the sender, except that a
     * value that waited for demand is emitted on the thread that calls {@code request}.
     *
     * @param <T> the value type
     * @param sender the work, connected and started per subscription
     * @return a cold publisher of the sender's result
     * @throws NullPointerException if {@code sender} is null
     */
    public static <T> Flow.Publisher<T> toPublisher(Sender<? extends T> sender) {
        return new SenderToPublisher<>(Objects.requireNonNull(sender, "sender"));
    }

    /**
     * A multi-shot sender that subscribes to {@code publisher} on each start, requests one
     * element, and completes with the first element (cancelling the subscription), or with
     * {@code setValue(null)} if the publisher completes empty. {@code onError(e)} is
     * {@code setError(e)}, except a {@link java.util.concurrent.CancellationException}, which is
     * {@code setStopped()}. A stop request on the receiver's token cancels the subscription and
     * completes {@code setStopped()} on the thread that requested stop (a stop that arrives while
     * {@code start()} is still subscribing is completed by {@code start()} when {@code subscribe}
     * returns); otherwise the receiver is completed on the thread of the publisher's signal. A stop
     * already requested when the operation starts completes it stopped without subscribing.
     *
     * <p>The subscriber holds the publisher to the Reactive Streams rules: a second
     * {@code onSubscribe} is cancelled (§2.5) and reported; {@code onNext} before
     * {@code onSubscribe} (§1.9) or beyond demand (§1.1) cancels and fails the receiver with
     * {@link dev.senders.ProtocolViolationException}; a {@code null} signal fails it with a
     * {@link NullPointerException} that is also thrown to the caller (§2.13); signals after the
     * publisher terminated (§1.7) are reported to {@link dev.senders.Hooks#onErrorDropped}. A
     * publisher that calls {@code onComplete} on another thread while an {@code onNext} is running
     * (§1.3 broken) still gets the receiver completed exactly once.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of the first element ({@code null} when there is none)
     * @throws NullPointerException if {@code publisher} is null
     */
    public static <T> Sender<T> fromPublisher(Flow.Publisher<? extends T> publisher) {
        return new PublisherToSender<T, T>(Objects.requireNonNull(publisher, "publisher"), PublisherOperation.FIRST);
    }

    /**
     * As {@link #fromPublisher}, but requests unbounded and completes with every element, in an
     * unmodifiable list (empty if none), when the publisher completes.
     *
     * @param <T> the element type
     * @param publisher the source, subscribed on each start
     * @return a sender of an unmodifiable list of every element
     * @throws NullPointerException if {@code publisher} is null
     */
    public static <T> Sender<List<T>> fromPublisherList(Flow.Publisher<? extends T> publisher) {
        return new PublisherToSender<T, List<T>>(Objects.requireNonNull(publisher, "publisher"),
                PublisherOperation.LIST | PublisherOperation.FROZEN_LIST);
    }
}
