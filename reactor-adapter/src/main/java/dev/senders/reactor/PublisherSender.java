package dev.senders.reactor;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * {@link ReactorSenders#fromMono}, {@link ReactorSenders#fromPublisher} and their variants: a
 * multi-shot sender that subscribes to the publisher once per started operation.
 *
 * <p>What the operation does, per {@link Mode}:
 * <table>
 * <caption>modes</caption>
 * <tr><th>mode</th><th>requests</th><th>onNext</th><th>onComplete</th></tr>
 * <tr><td>FIRST</td><td>1</td><td>cancel upstream, {@code setValue(v)}</td><td>{@code setValue(null)}</td></tr>
 * <tr><td>OPTIONAL</td><td>1</td><td>cancel upstream, {@code setValue(Optional.of(v))}</td><td>{@code setValue(Optional.empty())}</td></tr>
 * <tr><td>SINGLE</td><td>unbounded</td><td>a second element: cancel upstream, {@code setError(IndexOutOfBoundsException)}</td>
 *     <td>the element, or {@code setError(NoSuchElementException)}</td></tr>
 * <tr><td>LAST</td><td>unbounded</td><td>kept</td><td>the last element, or {@code setValue(null)}</td></tr>
 * <tr><td>LIST</td><td>unbounded</td><td>added</td><td>{@code setValue(list)} (possibly empty; a fresh mutable list)</td></tr>
 * <tr><td>IGNORE</td><td>unbounded</td><td>discarded ({@link Operators#onDiscard})</td><td>{@code setValue(null)}</td></tr>
 * </table>
 * In every mode {@code onError(e)} is {@code setError(e)}, except a {@link CancellationException},
 * which is {@code setStopped()}; a stop request on the receiver's token cancels the upstream
 * subscription and then completes the receiver with {@code setStopped()}, on the thread that
 * requested stop. Other completions happen on the thread of the publisher's signal.
 *
 * <p>The subscriber is Reactive Streams compliant and checks the publisher: a second
 * {@code onSubscribe} is cancelled (§2.5) and reported; {@code onNext} beyond demand (§1.1) or
 * before {@code onSubscribe} (§1.9) cancels upstream and fails the receiver with a
 * {@link ProtocolViolationException}; a {@code null} element or error fails it with a
 * {@link NullPointerException} which is also thrown to the caller (§2.13); signals after the
 * publisher terminated (§1.7) go to {@link Operators#onNextDropped}/{@link Operators#onErrorDropped};
 * signals after a cancel (legal, §2.8) are dropped to Reactor's discard/error hooks. Nothing is
 * silently lost; nothing is thrown into the publisher's thread except for §2.13.
 *
 * <h2>Implementation notes</h2>
 *
 * The stop callback (any thread) races the publisher's signals (serial, §1.3) on one atomic word:
 * <pre>
 *   bit 0 SUBSCRIBED  {@code upstream} was set by onSubscribe (plain field, published by this bit's CAS)
 *   bit 1 TERMINAL    the receiver's completion is claimed (by a signal or by the stop callback)
 *   bit 2 STARTED     start() was called (a second start is a protocol violation)
 * </pre>
 * Whoever sets {@code TERMINAL} first completes the receiver; the stop callback cancels the upstream
 * only if {@code SUBSCRIBED} was already set, otherwise {@code onSubscribe} sees {@code TERMINAL}
 * and cancels it. {@code received}, {@code done} and {@code terminated} are
 * touched only by the serial signal path and need no synchronization.
 *
 * <p>The buffers of SINGLE/LAST/LIST ({@code held}) must reach Reactor's discard
 * hook when a stop ends the operation, even if the publisher never signals again, so the stop
 * callback may need them while an {@code onNext} is storing into them. A second word, {@code wip},
 * hands them over without a lock (a missed-counter): the signal path increments it around each
 * signal and owns the buffers when it saw 0; the stop callback increments it once (never
 * decrements) and discards them if it saw 0; a signal path that, leaving, finds the counter
 * bumped discards them itself. Two atomic adds per element in those modes, none in the others.
 */
final class PublisherSender<T, R> implements Sender<R> {

    enum Mode {
        FIRST(1L, false), OPTIONAL(1L, false), SINGLE(Long.MAX_VALUE, true), LAST(Long.MAX_VALUE, true),
        LIST(Long.MAX_VALUE, true), IGNORE(Long.MAX_VALUE, false);

        /** What the operation requests, once, in onSubscribe. */
        final long demand;
        /** Whether elements are kept until completion (the {@code wip} hand-over applies). */
        final boolean buffering;

        Mode(long demand, boolean buffering) {
            this.demand = demand;
            this.buffering = buffering;
        }
    }

    private final Publisher<? extends T> source;
    private final Mode mode;

    PublisherSender(Publisher<? extends T> source, Mode mode) {
        this.source = source;
        this.mode = mode;
    }

    @Override
    public OperationState connect(Receiver<? super R> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        return new Operation<T, R>(source, mode, receiver);
    }

    /**
     * The source when this sender is {@code fromMono(m)}/{@code fromPublisher(m)} of a
     * {@code Mono}: one value or empty is exactly what {@code m} itself signals, so
     * {@link ReactorSenders#toMono} can return {@code m}. {@code null} otherwise.
     */
    @SuppressWarnings("unchecked") // FIRST mode: R is T
    Mono<? extends R> originalMono() {
        return mode == Mode.FIRST && source instanceof Mono ? (Mono<? extends R>) source : null;
    }

    @Override
    public String toString() {
        return "ReactorSenders.fromPublisher(" + source + ", " + mode + ")";
    }

    static final class Operation<T, R> implements CoreSubscriber<T>, OperationState, Runnable {

        static final int SUBSCRIBED = 1, TERMINAL = 2, STARTED = 4;

        private final Publisher<? extends T> source;
        private final byte modeIndex;   // the Mode's ordinal: a byte, so that the operation is 48 bytes
        private final Receiver<? super R> receiver;
        private final Context context;

        private Subscription upstream;
        private StopCallback stopCallback;
        private volatile int state;

        // serial signal path only (§1.3)
        private byte received;       // elements received, saturating at 2 (FIRST and SINGLE need 0, 1, more)
        private boolean done;        // upstream terminated, or broke the protocol: consume nothing more
        private boolean terminated;  // upstream sent onComplete/onError (a second one breaks §1.7)
        private Object held;         // SINGLE/LAST: the element; LIST: the List. Owned by whoever holds `wip` (see class notes)
        private volatile int wip;

        Operation(Publisher<? extends T> source, Mode mode, Receiver<? super R> receiver) {
            this.source = source;
            this.modeIndex = (byte) mode.ordinal();
            this.receiver = receiver;
            this.context = ReactorSenders.contextOf(receiver.env());
        }

        private static final Mode[] MODES = Mode.values();

        private Mode mode() {
            return MODES[modeIndex];
        }

        /**
         * The signal path takes the buffers. {@code false}: the stop callback took them (and
         * discarded them); the caller must not touch them. Non-buffering modes: always true, free.
         */
        private boolean enter() {
            return !mode().buffering || (int) WIP.getAndAdd(this, 1) == 0;
        }

        /** The signal path gives the buffers back; a stop that came meanwhile left them to us. */
        private void leave() {
            if (mode().buffering && (int) WIP.getAndAdd(this, -1) != 1) {
                discardHeld();
            }
        }

        /** Called by the owner of the buffers only: hand what is held to Reactor's discard hook. */
        private void discardHeld() {
            Object h = held;
            held = null;
            if (h instanceof List && mode() == Mode.LIST) {
                Dropped.discardAll((List<?>) h, context);
            } else if (h != null) {
                Dropped.discard(h, context);
            }
        }

        @Override
        public Context currentContext() {
            return context;
        }

        @Override
        public void start() {
            int prev = (int) STATE.getAndBitwiseOr(this, STARTED);
            if ((prev & STARTED) != 0) {
                Dropped.error(new ProtocolViolationException("OperationState.start() called twice on " + this), context);
                return;
            }
            StopToken token = receiver.env().stopToken();
            if (token.stopRequested()) {
                if (claim()) {
                    Signals.setStopped(receiver);
                }
                return;
            }
            if (token.stopPossible()) {
                StopCallback cb = token.onStop(this); // may run inline (stop raced): then TERMINAL is set
                stopCallback = cb;
            }
            if ((state & TERMINAL) != 0) {
                return;
            }
            try {
                source.subscribe(this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                // A publisher that throws from subscribe broke §1.9; the receiver still gets an answer.
                if (claim()) {
                    Subscription s = (state & SUBSCRIBED) != 0 ? upstream : null;
                    if (s != null) {
                        cancelUpstream(s);
                    }
                    complete();
                    Signals.setError(receiver, t);
                } else {
                    Dropped.error(t, context);
                }
            }
        }

        /** The stop callback: cancel upstream, then setStopped (DESIGN.md's table). */
        @Override
        public void run() {
            int prev = (int) STATE.getAndBitwiseOr(this, TERMINAL);
            if ((prev & TERMINAL) != 0) {
                return;
            }
            if ((prev & SUBSCRIBED) != 0) {
                cancelUpstream(upstream);
            }
            if (mode().buffering && (int) WIP.getAndAdd(this, 1) == 0) {
                discardHeld(); // no signal in progress, and none will touch the buffers again
            }
            Signals.setStopped(receiver);
        }

        /**
         * {@link ReactorScopes#spawn}'s {@code Disposable.dispose()}: a stop request that comes from
         * outside the receiver's token. Same outcome as the stop callback (cancel upstream, then
         * {@code setStopped()} on this thread), and the callback registered on the token is closed
         * first (the token outlives this operation: a scope's stop source). Called only after
         * {@link #start()} returned.
         */
        void dispose() {
            int prev = (int) STATE.getAndBitwiseOr(this, TERMINAL);
            if ((prev & TERMINAL) != 0) {
                return;
            }
            if ((prev & SUBSCRIBED) != 0) {
                cancelUpstream(upstream);
            }
            if (mode().buffering && (int) WIP.getAndAdd(this, 1) == 0) {
                discardHeld();
            }
            complete();
            Signals.setStopped(receiver);
        }

        /** Whether the receiver's completion is claimed (terminated, stopped or disposed). */
        boolean isTerminated() {
            return (state & TERMINAL) != 0;
        }

        /** §3.15: cancel must return normally; a publisher whose cancel throws is reported, not trusted. */
        private void cancelUpstream(Subscription s) {
            try {
                s.cancel();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Dropped.error(new ProtocolViolationException("§3.15 violated: Subscription.cancel() threw " + t), context);
            }
        }

        private boolean claim() {
            return ((int) STATE.getAndBitwiseOr(this, TERMINAL) & TERMINAL) == 0;
        }

        /** Before completing the receiver: deregister the stop callback (DESIGN.md: stop tokens). */
        private void complete() {
            StopCallback cb = stopCallback;
            if (cb != null) {
                stopCallback = null;
                cb.close();
            }
        }

        @Override
        public void onSubscribe(Subscription s) {
            Objects.requireNonNull(s, "§2.13: onSubscribe(null)");
            if (upstream != null) {
                // §2.5: cancel the second subscription, keep the first, and say so.
                cancelUpstream(s);
                Dropped.error(new ProtocolViolationException(
                        "§2.5 violated: onSubscribe called twice by " + source), context);
                return;
            }
            upstream = s;
            int prev = (int) STATE.getAndBitwiseOr(this, SUBSCRIBED);
            if ((prev & TERMINAL) != 0) {
                cancelUpstream(s); // stop (or a failed subscribe) came first: nobody will consume
                return;
            }
            long n = mode().demand;
            try {
                s.request(n);
            } catch (Throwable t) {
                // §3.16: request must return normally; the receiver gets the failure.
                Signals.throwIfFatal(t);
                failFromSignal(t);
            }
        }

        @Override
        public void onNext(T t) {
            if (t == null) {
                NullPointerException npe = new NullPointerException("§2.13 violated: onNext(null) by " + source);
                failFromSignal(npe);
                throw npe;
            }
            if (done) {
                Dropped.next(t, context); // §1.7: a signal after onComplete/onError
                return;
            }
            long requested = mode().demand;
            if (received == requested && requested != Long.MAX_VALUE || upstream == null) {
                failFromSignal(new ProtocolViolationException(upstream == null
                        ? "§1.9 violated: onNext before onSubscribe by " + source
                        : "§1.1 violated: onNext without demand (requested " + requested + ") by " + source));
                Dropped.next(t, context);
                return;
            }
            if (received < 2) {
                received++;
            }
            if (!enter()) {
                Dropped.discard(t, context); // stopped: the buffers are gone, so is this element
                return;
            }
            try {
                onNextHeld(t);
            } finally {
                leave();
            }
        }

        private void onNextHeld(T t) {
            if ((state & TERMINAL) != 0) {
                Dropped.discard(t, context); // §2.8: we cancelled, elements may still arrive
                return;
            }
            switch (mode()) {
                case FIRST:
                case OPTIONAL:
                    // Not `done`: the publisher may still complete (§2.8), which is legal and ignored.
                    if (claim()) {
                        cancelUpstream(upstream);
                        complete();
                        deliver(mode() == Mode.FIRST ? t : Optional.of(t));
                    } else {
                        Dropped.discard(t, context);
                    }
                    return;
                case SINGLE:
                    if (received == 1) {
                        held = t;
                        return;
                    }
                    if (claim()) {
                        cancelUpstream(upstream);
                        discardHeld();
                        complete();
                        Dropped.discard(t, context);
                        Signals.setError(receiver, new IndexOutOfBoundsException("Source emitted more than one item"));
                    } else {
                        Dropped.discard(t, context);
                    }
                    return;
                case LAST:
                    Object old = held;
                    held = t;
                    if (old != null) {
                        Dropped.discard(old, context);
                    }
                    return;
                case LIST:
                    if (held == null) {
                        held = new ArrayList<T>();
                    }
                    @SuppressWarnings("unchecked") // LIST mode: held is the List
                    List<T> l = (List<T>) held;
                    l.add(t);
                    return;
                default: // IGNORE
                    Dropped.discard(t, context);
            }
        }

        @SuppressWarnings("unchecked")
        private void deliver(Object v) {
            Signals.setValue(receiver, (R) v);
        }

        /** The publisher broke the protocol: cancel it and fail the receiver if it can still take it. */
        private void failFromSignal(Throwable e) {
            done = true;
            if (claim()) {
                if ((state & SUBSCRIBED) != 0) {
                    cancelUpstream(upstream);
                }
                if (enter()) { // never nested: callers hold nothing
                    discardHeld();
                    leave();
                }
                complete();
                Signals.setError(receiver, e);
            } else {
                Dropped.error(e, context); // the receiver has its answer: still never silent
            }
        }

        @Override
        public void onError(Throwable e) {
            Objects.requireNonNull(e, "§2.13: onError(null)");
            if (done) {
                Dropped.error(e, context); // §1.7: after a terminal signal (or a violation)
                return;
            }
            done = true;
            terminated = true;
            boolean owner = enter();
            try {
                if (owner) {
                    discardHeld(); // an error ends the stream: what was buffered is given up
                }
                if (!claim()) {
                    if (!(e instanceof CancellationException)) {
                        Dropped.error(e, context); // after our cancel/stop: never lost (issue 4 item 6)
                    }
                    return;
                }
            } finally {
                if (owner) {
                    leave();
                }
            }
            complete();
            if (e instanceof CancellationException) {
                Signals.setStopped(receiver); // DESIGN.md: an upstream CancellationException is setStopped
            } else {
                Signals.setError(receiver, e);
            }
        }

        @Override
        @SuppressWarnings("unchecked") // held is a T (SINGLE/LAST) or a List<T> (LIST)
        public void onComplete() {
            if (terminated) {
                Dropped.error(new ProtocolViolationException(
                        "§1.7 violated: onComplete after a terminal signal by " + source), context);
                return;
            }
            if (done) {
                return; // after a violation we already reported
            }
            done = true;
            terminated = true;
            if (!enter()) {
                return; // stopped: the stop callback discarded the buffers and completed the receiver
            }
            T e;
            List<T> l;
            try {
                if (!claim()) {
                    discardHeld(); // cancelled/stopped: the receiver already has its answer
                    return;
                }
                Object h = held;
                held = null;
                e = mode() == Mode.LIST ? null : (T) h;
                l = mode() == Mode.LIST ? (List<T>) h : null;
            } finally {
                leave();
            }
            complete();
            switch (mode()) {
                case FIRST:
                    deliver(null);
                    return;
                case OPTIONAL:
                    deliver(Optional.empty());
                    return;
                case SINGLE:
                    if (e == null) {
                        Signals.setError(receiver, new NoSuchElementException("Source was empty"));
                    } else {
                        deliver(e);
                    }
                    return;
                case LAST:
                    deliver(e);
                    return;
                case LIST:
                    deliver(l == null ? new ArrayList<T>() : l);
                    return;
                default:
                    deliver(null);
            }
        }

        @Override
        public String toString() {
            return "ReactorSenders.fromPublisher(" + mode() + ")[state=" + state + "]";
        }

        private static final VarHandle STATE;
        private static final VarHandle WIP;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Operation.class, "state", int.class);
                WIP = MethodHandles.lookup().findVarHandle(Operation.class, "wip", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
