/**
 * {@link java.util.concurrent.Flow} interop for senders, JDK only: {@link dev.senders.flow.FlowSenders}.
 *
 * <h2>Decisions</h2>
 * <ol>
 * <li><b>One boundary for every adapter.</b> The subscriber and the subscription are thin shells
 *     ({@code PublisherToSender}, {@code SenderToPublisher}) over the library's one Reactive Streams
 *     core ({@code dev.senders.internal.rs.PublisherOperation} and {@code SenderSubscription}), which
 *     the Reactor and RxJava adapters share: same mapping, same rules, one state machine each way
 *     (RS1-RS11). Cancel = stop request on the subscription's own stop token (the
 *     subscription object itself); a value only after demand; {@code setValue(null)} = empty
 *     completion; a stopped completion the subscriber did not cause =
 *     {@code onError(CancellationException)}, and an upstream {@code CancellationException} =
 *     {@code setStopped()}.</li>
 * <li><b>Selections.</b> {@code fromPublisher} takes the first element (requests exactly 1, then
 *     cancels), like Reactor's {@code Flux.next()} and RxJava's {@code firstElement()}; empty is
 *     {@code null}, as {@code Mono.block()} returns. {@code fromPublisherList} requests
 *     {@code Long.MAX_VALUE} and completes with an unmodifiable list (empty if none). The core has the
 *     other selections (single, last, ignore); they are left to the adapters until someone needs
 *     them on plain Flow.</li>
 * <li><b>Where undeliverable things go.</b> Core has no plugin hook of its own besides
 *     {@link dev.senders.Hooks#onErrorDropped}: an error after cancel, a second completion of a
 *     sender, a subscriber that throws, a second {@code onSubscribe}, a signal after a terminal
 *     signal all go there. A stopped completion that answers the subscriber's own cancel is the
 *     expected outcome and goes nowhere.</li>
 * <li><b>Foreign publishers are held to the rules</b> (§1.1, §1.7, §1.9, §2.5, §2.13) with a
 *     {@link dev.senders.ProtocolViolationException} or {@link NullPointerException}, never
 *     silently tolerated; elements within demand after our own cancel are legal (§2.8) and ignored;
 *     the receiver is completed exactly once even by a publisher that signals concurrently (§1.3).</li>
 * <li><b>A subscriber that cancels inside {@code onSubscribe}</b> (or requests {@code n <= 0} there)
 *     gets an operation that is dropped unstarted: the sender never runs (P2300: an unstarted
 *     operation sends nothing).</li>
 * <li><b>The publisher's env carries only the stop token</b>: a Flow subscriber has no context
 *     to map, and no scheduler is implied.</li>
 * </ol>
 */
@NullMarked
package dev.senders.flow;

import org.jspecify.annotations.NullMarked;
