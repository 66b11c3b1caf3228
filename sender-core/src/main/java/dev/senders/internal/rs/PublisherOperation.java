package dev.senders.internal.rs;

import dev.senders.internal.signal.Signals;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;

/**
 * The operation of a sender made from a publisher: the one subscriber-to-sender state machine of
 * the library (not public API). The Flow, Reactor and RxJava {@code from*} operations are thin
 * shells over it: a shell implements its library's {@code Subscriber}/{@code Observer} interface,
 * passes {@code onSubscribe} to {@link #upstreamSubscribe}, inherits {@link #onNext},
 * {@link #onError}, {@link #onComplete} and {@link #onSuccess} from here, speaks its library's
 * publisher and subscription interfaces in one method ({@link #upstream}: subscribe, request,
 * cancel), and says where undeliverable things go ({@link #dropError}, {@link #dropNext},
 * {@link #discard}).
 *
 * <p><b>Contract.</b> {@code start()} subscribes to the source (once per start: the sender is
 * cold and multi-shot), signals demand once in {@code onSubscribe} (§2.1) and completes the
 * receiver exactly once, with the value its mode selects:
 * <table>
 * <caption>modes</caption>
 * <tr><th>mode</th><th>requests</th><th>on an element</th><th>on onComplete</th></tr>
 * <tr><td>{@link #FIRST}</td><td>1</td><td>cancel, {@code setValue(v)} ({@link #OPTIONAL}: {@code Optional.of(v)})</td>
 *     <td>{@code setValue(null)} ({@code Optional.empty()})</td></tr>
 * <tr><td>{@link #SINGLE}</td><td>unbounded ({@link #REQUEST_TWO}: 2)</td><td>a second one: cancel, {@code setError(tooManyError())}</td>
 *     <td>the element; none: {@code null} ({@link #EMPTY_FAILS}: {@code setError(NoSuchElementException)})</td></tr>
 * <tr><td>{@link #LAST}</td><td>unbounded</td><td>kept (the previous one discarded)</td><td>the last element or {@code null}</td></tr>
 * <tr><td>{@link #LIST}</td><td>unbounded</td><td>added</td><td>a new mutable list ({@link #FROZEN_LIST}: unmodifiable)</td></tr>
 * <tr><td>{@link #IGNORE}</td><td>unbounded</td><td>discarded</td><td>{@code setValue(null)}</td></tr>
 * </table>
 * {@code onSuccess(v)} (a source whose value is its terminal signal: RxJava's {@code Single} and
 * {@code Maybe}) is {@code setValue(v)}. {@code onError(e)} is {@code setError(e)}, except that a
 * {@link CancellationException} is {@code setStopped()}. A stop request on the receiver's token
 * cancels the subscription and completes {@code setStopped()} on the stopping thread, except while
 * {@code start()} is still subscribing: then only the cancel happens at once, and {@code start()}
 * completes stopped when {@code subscribe} has returned (a receiver may be a scope's, which must not
 * be released while its work is still being started). A stop already requested at start completes
 * stopped without subscribing. Otherwise the receiver is completed on the thread of the source's
 * signal.
 *
 * <p><b>The source is held to the rules</b>, each the same for every shell, and never silently:
 * <ul>
 * <li>{@code onNext(null)}, {@code onError(null)}, {@code onSubscribe(null)}, {@code onSuccess(null)}
 *     (§2.13): the receiver fails with a {@link NullPointerException} (after a cancel, for
 *     {@code onNext}), and the same exception is thrown to the caller, as §2.13 requires;</li>
 * <li>a second {@code onSubscribe} (§2.5): that subscription is cancelled, the first kept, and a
 *     {@link ProtocolViolationException} goes to {@link #dropError};</li>
 * <li>{@code onNext} before {@code onSubscribe} (§1.9) or beyond what was requested (§1.1, even
 *     after our own cancel): cancel, and the receiver fails with a {@link ProtocolViolationException}
 *     (or it goes to {@link #dropError} if the receiver already has its completion); the element
 *     goes to {@link #dropNext};</li>
 * <li>{@code onNext} or {@code onComplete} after {@code onComplete}/{@code onError} (§1.7): a
 *     {@link ProtocolViolationException} to {@link #dropError} (the element also to
 *     {@link #dropNext}); an {@code onError} then: the error itself to {@link #dropError};</li>
 * <li>{@code onComplete} or {@code onError} while an {@code onNext} is still running on another
 *     thread (§1.3), when the shell discards ({@link #DISCARDS}, which makes the overlap visible):
 *     the receiver fails with a {@link ProtocolViolationException}; without {@link #DISCARDS} the
 *     overlap cannot be seen without an atomic per element, and the terminal signal completes the
 *     receiver as usual. Either way the receiver is completed exactly once;</li>
 * <li>a {@code subscribe} that throws (§1.9), a {@code request} that throws (§3.16): the receiver
 *     fails with what was thrown; a {@code cancel} that throws (§3.15): reported to
 *     {@link #dropError}.</li>
 * </ul>
 * Signals after our own cancel are legal (§2.8, §3.12: cancel takes effect eventually): elements
 * and {@code onComplete} are ignored (elements go to {@link #discard}); an {@code onError} is
 * undeliverable and goes to {@link #dropError}, unless it is a {@code CancellationException}. A
 * second {@code start()} throws {@link ProtocolViolationException}. The subscriber itself follows
 * the rules: it requests once, in {@code onSubscribe}; it never calls the subscription from
 * {@code onComplete}/{@code onError} (§2.3); its calls on the subscription are serial (§2.7), even
 * when a stop request races the {@code request} made in {@code onSubscribe} (the cancel then waits
 * until {@code request} has returned).
 */
public abstract class PublisherOperation<T, R> implements OperationState, Runnable {
    /*
     * One word, state, on which the stop callback (any thread), start() and the source's
     * signals (serial among themselves, §1.3, unless the source breaks it) race:
     *   STARTED      1   start() was called (never cleared: a second start() finds it)
     *   STARTING     2   start() has not finished subscribing
     *   STOP_PENDING 4   a stop came while STARTING: start() completes stopped when subscribe returns
     *   SUBSCRIBED   8   onSubscribe stored upstream (a plain field, published by this bit's CAS)
     *   IN_REQUEST  16   onSubscribe is inside request(n): a cancel wanted meanwhile is left to it
     *   DONE_US     32   we claimed the completion and want the subscription cancelled (a stop, the
     *                    selected element, a violation)
     *   DONE_UP     64   the source's own terminal signal claimed the completion
     *   BUSY       128   (DISCARDS with a buffering mode) an onNext is using the buffer
     * Exactly once. The completion belongs to whoever sets DONE_US or DONE_UP first, in a CAS
     * from a word with neither; that path closes the stop callback (P2300: deregister before
     * completing) and completes the receiver. Cancel exactly once, serially (§2.7). The claim
     * that sets DONE_US calls cancel itself if the word held SUBSCRIBED without IN_REQUEST; if
     * SUBSCRIBED was missing, onSubscribe finds DONE and cancels what arrives; if IN_REQUEST was
     * set, onSubscribe cancels once request has returned (it reads the word first and
     * only CASes IN_REQUEST away when nothing is decided yet). Start. start() writes
     * STARTED and STARTING with a plain store (nothing else can see the operation before its stop callback is
     * registered or its subscriber handed to the source) and clears it with a CAS after
     * subscribe returned, skipped when the source already completed the operation (the
     * synchronous case); a stop that finds STARTING sets DONE_US and STOP_PENDING, cancels, and leaves
     * the completion to start(). Buffers. held (SINGLE, LAST: the element;
     * LIST: the list), received (bounded demand only) and terminated are plain fields
     * of the serial signal path. With DISCARDS a stop must hand what is buffered to the
     * discard hook even if the source never signals again, so the buffer changes owner through BUSY:
     * an onNext sets it (getAndBitwiseOr) around its store and clears it
     * (getAndBitwiseAnd); a claim that finds BUSY clear takes the buffer (to discard it, or,
     * for onComplete, to deliver it), and an onNext that finds DONE when it clears BUSY
     * discards the buffer itself. An onNext that finds BUSY already set, and a terminal signal that
     * finds it set, are signals overlapping an onNext (§1.3 broken): they claim the completion with a
     * ProtocolViolationException and leave the buffer to the onNext that holds it. Two atomic
     * instructions per element in those modes (what Reactor's own collectList pays for its
     * lock), none in the others.
     *
     * @param <T> the element type
     * @param <R> the receiver's value type
     */

    /** Mode: request 1, complete with the first element and cancel; empty is {@code null}. */
    public static final int FIRST = 0;
    /** Mode: the only element; a second one cancels and fails with {@link #tooManyError()}. */
    public static final int SINGLE = 1;
    /** Mode: the last element; empty is {@code null}. */
    public static final int LAST = 2;
    /** Mode: every element, in a list. */
    public static final int LIST = 3;
    /** Mode: no value, only termination ({@code setValue(null)}). */
    public static final int IGNORE = 4;
    private static final int SELECTION = 7;
    /** Flag (FIRST): complete with {@code Optional.of(v)} / {@code Optional.empty()}. */
    public static final int OPTIONAL = 8;
    /** Flag (SINGLE): an empty source fails with {@link #emptyError()} instead of {@code null}. */
    public static final int EMPTY_FAILS = 16;
    /** Flag (LIST): the list is unmodifiable (else a fresh mutable {@code ArrayList}). */
    public static final int FROZEN_LIST = 32;
    /** Flag (SINGLE): request 2 instead of unbounded. */
    public static final int REQUEST_TWO = 64;
    /** Flag: the shell's {@link #discard} does something, so buffers are handed over (see the notes). */
    public static final int DISCARDS = 128;
    /** Flag: the source has no demand (RxJava observers): never request, no §1.1 count. */
    public static final int NO_DEMAND = 256;

    static final int STARTED = 1, STARTING = 2, STOP_PENDING = 4, SUBSCRIBED = 8, IN_REQUEST = 16,
            DONE_US = 32, DONE_UP = 64, BUSY = 128;
    static final int DONE = DONE_US | DONE_UP;

    private final Object source;
    private final Receiver<? super R> receiver;
    private final short mode;
    private boolean terminated;    // the source sent onComplete/onError/onSuccess (serial path)
    private byte received;         // elements received in modes with bounded demand, saturating past it (serial path)
    private volatile int state;
    private @Nullable Object upstream;       // the Subscription or Disposable; published by the CAS that sets SUBSCRIBED
    private @Nullable StopCallback stopCallback;
    private @Nullable Object held;           // SINGLE/LAST: the element; LIST: the list (see the notes for its owner)

    /**
     * @param source the publisher (or RxJava source) this operation subscribes to
     * @param receiver the receiver to complete
     * @param mode one of {@link #FIRST}, {@link #SINGLE}, {@link #LAST}, {@link #LIST}, {@link #IGNORE},
     *             with any of the flags
     */
    protected PublisherOperation(Object source, Receiver<? super R> receiver, int mode) {
        this.source = source;
        this.receiver = receiver;
        this.mode = (short) mode;
    }

    // ------------------------------------------------------------------ what a shell provides

    /** {@link #upstream}: subscribe {@code this} to {@link #source()}; no subscription, no amount. */
    protected static final int SUBSCRIBE = 0;
    /** {@link #upstream}: {@code subscription.request(n)}; never with {@link #NO_DEMAND}. */
    protected static final int REQUEST = 1;
    /** {@link #upstream}: {@code subscription.cancel()} (an observer's {@code Disposable}: {@code dispose()}). */
    protected static final int CANCEL = 2;

    /**
     * The one place where a shell speaks its library's publisher and subscription interfaces:
     * {@code what} is {@link #SUBSCRIBE}, {@link #REQUEST} or {@link #CANCEL}.
     */
    protected abstract void upstream(int what, @Nullable Object subscription, long n);

    /** The source given to the constructor (also what messages name). */
    protected final Object source() {
        return source;
    }

    /** An error no receiver can take (a violation after the completion, an error after our cancel). */
    protected void dropError(Throwable error) {
        Hooks.onErrorDropped(error);
    }

    /** An element that came after the source's own terminal signal (besides the violation report). */
    protected void dropNext(Object element) {}

    /** An element given up (after our cancel, replaced, or buffered when the operation ended); only with {@link #DISCARDS}. */
    protected void discard(Object element) {}

    /** A buffered list given up; only with {@link #DISCARDS}. */
    protected void discardAll(List<?> elements) {}

    /** SINGLE: the error for a second element. */
    protected Throwable tooManyError() {
        return new IndexOutOfBoundsException("Source emitted more than one item");
    }

    /** SINGLE with {@link #EMPTY_FAILS}: the error for an empty source. */
    protected Throwable emptyError() {
        return new NoSuchElementException("Source was empty");
    }

    // ------------------------------------------------------------------ start and stop

    @Override
    public final void start() {
        if (state != 0) {
            throw ImmediateOperation.startedTwice("the operation subscribing to " + source);
        }
        STATE.set(this, STARTED | STARTING); // plain: published by the callback registration or the subscribe below
        StopToken token = receiver.env().stopToken();
        if (token.stopRequested()) {
            STATE.set(this, STARTED | DONE_US);
            Signals.setStopped(receiver); // never subscribed: nothing to cancel
            return;
        }
        if (token.stopPossible()) {
            stopCallback = token.onStop(this); // may run this.run() inline: STOP_PENDING
        }
        if ((state & DONE) == 0) {
            try {
                upstream(SUBSCRIBE, null, 0);
            } catch (Throwable t) { // §1.9: subscribe must not throw; the receiver gets what it threw
                Signals.throwIfFatal(t);
                fail(t);
            }
        }
        for (;;) {
            int st = state;
            if ((st & DONE) != 0 && (st & STOP_PENDING) == 0) {
                return; // completed by a signal while starting: nobody looks at STARTING any more
            }
            if (STATE.compareAndSet(this, st, st & ~STARTING)) {
                if ((st & STOP_PENDING) != 0) {
                    closeStopCallback(); // waits for the stop callback's cancel if it still runs
                    Signals.setStopped(receiver);
                }
                return;
            }
        }
    }

    /**
     * The stop callback (and a direct stop: {@code Disposable.dispose()} of a spawned publisher):
     * cancel the subscription, then complete stopped, or leave the completion to a {@code start()}
     * still subscribing.
     */
    @Override
    public final void run() {
        for (;;) {
            int st = state;
            if ((st & DONE) != 0) {
                return;
            }
            boolean starting = (st & STARTING) != 0;
            if (STATE.compareAndSet(this, st, st | DONE_US | (starting ? STOP_PENDING : 0))) {
                cancelAndTakeBuffer(st);
                if (!starting) {
                    closeStopCallback();
                    Signals.setStopped(receiver);
                }
                return;
            }
        }
    }

    /** Whether the receiver's completion is claimed (by a signal, a stop or a violation). */
    protected final boolean isDone() {
        return (state & DONE) != 0;
    }

    /** Whether we cancelled the subscription (or will, once it arrives). */
    protected final boolean isCancelled() {
        return (state & DONE_US) != 0;
    }

    /** The subscription, once {@code onSubscribe} stored it; {@code null} before. */
    protected final @Nullable Object upstream() {
        return (state & SUBSCRIBED) != 0 ? upstream : null;
    }

    /** Whether the source has no demand ({@link #NO_DEMAND}: an RxJava observer's {@code Disposable}). */
    protected final boolean noDemand() {
        return (mode & NO_DEMAND) != 0;
    }

    /** What this operation requests in {@code onSubscribe} (0 for {@link #NO_DEMAND}). */
    protected final long demand() {
        int m = mode;
        if ((m & NO_DEMAND) != 0) {
            return 0;
        }
        int sel = m & SELECTION;
        return sel == FIRST ? 1 : sel == SINGLE && (m & REQUEST_TWO) != 0 ? 2 : Long.MAX_VALUE;
    }

    // ------------------------------------------------------------------ the source's signals

    /** The shell's {@code onSubscribe(s)}. */
    protected final void upstreamSubscribe(Object s) {
        if (s == null) {
            throw nullSignal("onSubscribe(null)", false);
        }
        if (upstream != null) {
            cancelUpstream(s);
            dropError(new ProtocolViolationException(source() + " called onSubscribe twice (Reactive Streams "
                    + "§2.5); the second subscription was cancelled, the first is kept"));
            return;
        }
        upstream = s;
        long n = demand();
        for (;;) {
            int st = state;
            if ((st & DONE) != 0) {
                cancelUpstream(s); // stopped or failed before the subscription arrived
                return;
            }
            if (STATE.compareAndSet(this, st, st | SUBSCRIBED | (n != 0 ? IN_REQUEST : 0))) {
                break;
            }
        }
        if (n == 0) {
            return;
        }
        try {
            upstream(REQUEST, s, n);
        } catch (Throwable t) { // §3.16: request must return normally; the receiver gets what it threw
            Signals.throwIfFatal(t);
            if ((leaveRequest() & DONE_US) != 0) {
                cancelUpstream(s);
            }
            fail(t);
            return;
        }
        if ((leaveRequest() & DONE_US) != 0) {
            cancelUpstream(s); // a claim made during request left the cancel to us (§2.7)
        }
    }

    /** Clears IN_REQUEST unless nothing can want it any more; returns the word it saw. */
    private int leaveRequest() {
        for (;;) {
            int st = state;
            if ((st & DONE) != 0 || STATE.compareAndSet(this, st, st & ~IN_REQUEST)) {
                return st; // once DONE, no later claim can want a cancel: no CAS needed
            }
        }
    }

    /** The shell's {@code onNext(t)}. */
    public final void onNext(T t) {
        if (t == null) {
            throw nullSignal("onNext(null)", false);
        }
        int m = mode;
        if ((m & NO_DEMAND) == 0 && bounded(m) && received++ >= demand()) {
            received--; // saturates at the demand: every further element is one too many
            fail(new ProtocolViolationException(source() + " sent more elements than were requested (Reactive "
                    + "Streams §1.1): requested " + demand()));
            dropNext(t);
            return;
        }
        int st = state;
        if ((st & (DONE | SUBSCRIBED)) != SUBSCRIBED) {
            if ((st & DONE) == 0) {
                fail(new ProtocolViolationException(source()
                        + " called onNext before onSubscribe (Reactive Streams §1.9)"));
                dropNext(t);
            } else if (terminated) {
                afterTerminal("onNext(" + t + ")");
                dropNext(t);
            } else {
                discardIf(m, t); // §2.8: after our own cancel, expected
            }
            return;
        }
        int sel = m & SELECTION;
        if (sel == FIRST) {
            if (claimAndCancel()) {
                deliver((m & OPTIONAL) != 0 ? Optional.of(t) : t);
            } else {
                discardIf(m, t);
            }
        } else if (sel == IGNORE) {
            discardIf(m, t);
        } else if ((m & DISCARDS) == 0) {
            store(t, m);
        } else {
            storeHandedOver(t, m);
        }
    }

    private static boolean bounded(int m) {
        int sel = m & SELECTION;
        return sel == FIRST || sel == SINGLE && (m & REQUEST_TWO) != 0;
    }

    private void storeHandedOver(T t, int m) {
        int prev = (int) STATE.getAndBitwiseOr(this, BUSY);
        if ((prev & (BUSY | DONE)) != 0) {
            if ((prev & DONE) == 0) { // another onNext holds the buffer: §1.3 broken
                overlapping("onNext");
            }
            discard(t); // BUSY stays set: nothing reads it once DONE is set
            return;
        }
        store(t, m);
        if (((int) STATE.getAndBitwiseAnd(this, ~BUSY) & DONE) != 0) {
            discardHeld(); // a stop (or an overlapping signal) came meanwhile and left the buffer to us
        }
    }

    @SuppressWarnings("unchecked") // held is the List in LIST mode
    private void store(T t, int m) {
        int sel = m & SELECTION;
        if (sel == LIST) {
            List<T> l = (List<T>) held;
            if (l == null) {
                held = l = new ArrayList<>();
            }
            l.add(t);
        } else if (sel == LAST) {
            Object old = held;
            held = t;
            if (old != null) {
                discardIf(m, old);
            }
        } else if (held == null) { // SINGLE
            held = t;
        } else {
            fail(tooManyError());
            discardIf(m, t);
        }
    }

    /** The shell's {@code onComplete()}. */
    @SuppressWarnings("unchecked") // held is a T, or the List in LIST mode
    public final void onComplete() {
        if (terminated) {
            afterTerminal("onComplete()");
            return;
        }
        terminated = true;
        int st = claimUp();
        if (st < 0) {
            return; // after our cancel (§2.8), a stop or a violation: the receiver has its answer
        }
        if ((st & BUSY) != 0) {
            Signals.setError(receiver, overlap("onComplete"));
            return;
        }
        int m = mode;
        int sel = m & SELECTION;
        Object h = held;
        held = null;
        Object result;
        if (sel == LIST) {
            List<T> l = (List<T>) h;
            result = l == null ? ((m & FROZEN_LIST) != 0 ? List.of() : new ArrayList<T>())
                    : (m & FROZEN_LIST) != 0 ? Collections.unmodifiableList(l) : l;
        } else if (sel == FIRST && (m & OPTIONAL) != 0) {
            result = Optional.empty();
        } else if (sel == SINGLE && h == null && (m & EMPTY_FAILS) != 0) {
            Signals.setError(receiver, emptyError());
            return;
        } else {
            result = h; // FIRST: null; SINGLE, LAST: the element or null; IGNORE: null
        }
        deliver(result);
    }

    /** The shell's {@code onSuccess(v)}: the source terminated with this value. */
    public final void onSuccess(T value) {
        if (value == null) {
            throw nullSignal("onSuccess(null)", true);
        }
        if (terminated) {
            afterTerminal("onSuccess(" + value + ")");
            return;
        }
        terminated = true;
        if (claimUp() >= 0) {
            deliver((mode & OPTIONAL) != 0 ? Optional.of(value) : value);
        } else {
            discardIf(mode, value);
        }
    }

    /** The shell's {@code onError(e)}. */
    public final void onError(Throwable e) {
        if (e == null) {
            throw nullSignal("onError(null)", true);
        }
        if (terminated) {
            dropError(e); // §1.7 broken: an error after the terminal signal is undeliverable, never lost
            return;
        }
        terminated = true;
        int st = claimUp();
        if (st < 0) {
            if (!(e instanceof CancellationException)) {
                dropError(e); // after our cancel or a stop: undeliverable, never lost
            }
            return;
        }
        if ((st & BUSY) != 0) {
            dropError(overlap("onError")); // the error itself still reaches the receiver
        } else {
            takeBufferToDiscard();
        }
        if (e instanceof CancellationException) {
            Signals.setStopped(receiver); // an upstream CancellationException is stopped
        } else {
            Signals.setError(receiver, e);
        }
    }

    // ------------------------------------------------------------------ claims

    /** Claims the completion for the source's terminal signal; the replaced word, or -1 if taken. */
    private int claimUp() {
        for (;;) {
            int st = state;
            if ((st & DONE) != 0) {
                return -1;
            }
            if (STATE.compareAndSet(this, st, st | DONE_UP)) {
                closeStopCallback();
                return st;
            }
        }
    }

    /** Claims the completion for us and cancels (now, or through onSubscribe); false if taken. */
    private boolean claimAndCancel() {
        for (;;) {
            int st = state;
            if ((st & DONE) != 0) {
                return false;
            }
            if (STATE.compareAndSet(this, st, st | DONE_US)) {
                cancelAndTakeBuffer(st);
                closeStopCallback();
                return true;
            }
        }
    }

    /** After a claim of DONE_US from {@code st}: cancel if it is ours to do, discard what is ours. */
    private void cancelAndTakeBuffer(int st) {
        if ((st & (SUBSCRIBED | IN_REQUEST)) == SUBSCRIBED) {
            cancelUpstream(upstream);
        }
        if ((st & BUSY) == 0) {
            takeBufferToDiscard();
        }
    }

    /** The receiver fails with {@code error}, or, if it has its completion, {@code error} is dropped. */
    private void fail(Throwable error) {
        if (claimAndCancel()) {
            Signals.setError(receiver, error);
        } else {
            dropError(error);
        }
    }

    private void overlapping(String signal) {
        if (claimAndCancel()) {
            Signals.setError(receiver, overlap(signal));
        }
    }

    private ProtocolViolationException overlap(String signal) {
        return new ProtocolViolationException(source() + " called " + signal + " while onNext was still "
                + "running on another thread (Reactive Streams §1.3: signals must be serial)");
    }

    private void afterTerminal(String signal) {
        dropError(new ProtocolViolationException(source() + " called " + signal
                + " after its terminal signal (Reactive Streams §1.7)"));
    }

    /**
     * §2.13: the receiver fails with the returned exception (which the caller throws) if it can
     * still take it. {@code terminal}: the null signal was the source's terminal one.
     */
    private NullPointerException nullSignal(String signal, boolean terminal) {
        NullPointerException npe = new NullPointerException(source() + " called " + signal
                + " (Reactive Streams §2.13: signals must not be null)");
        if (!terminal) {
            if (claimAndCancel()) {
                Signals.setError(receiver, npe);
            }
        } else if (!terminated) {
            terminated = true;
            int st = claimUp();
            if (st >= 0) {
                if ((st & BUSY) == 0) {
                    takeBufferToDiscard();
                }
                Signals.setError(receiver, npe);
            }
        }
        return npe;
    }

    private void cancelUpstream(@Nullable Object s) {
        try {
            upstream(CANCEL, s, 0);
        } catch (Throwable t) { // §3.15: cancel must return normally
            Signals.throwIfFatal(t);
            ProtocolViolationException pve = new ProtocolViolationException("the subscription of " + source()
                    + " threw from cancel() (Reactive Streams §3.15)");
            pve.initCause(t);
            dropError(pve);
        }
    }

    private void closeStopCallback() {
        StopCallback c = stopCallback;
        if (c != null) {
            stopCallback = null;
            c.close(); // from inside the callback itself this returns at once
        }
    }

    @SuppressWarnings("unchecked")
    private void deliver(@Nullable Object value) {
        Signals.setValue(receiver, (R) value);
    }

    private void discardIf(int m, Object element) {
        if ((m & DISCARDS) != 0) {
            discard(element);
        }
    }

    /** With {@link #DISCARDS}, by the owner of the buffer only: hand what is held to the discard hook. */
    private void takeBufferToDiscard() {
        if ((mode & DISCARDS) != 0) {
            discardHeld();
        }
    }

    private void discardHeld() {
        Object h = held;
        if (h != null) {
            held = null;
            if ((mode & SELECTION) == LIST) {
                discardAll((List<?>) h);
            } else {
                discard(h);
            }
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + source() + ")[state=" + state + "]";
    }

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), PublisherOperation.class, "state", int.class);
}
