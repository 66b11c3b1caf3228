package dev.senders;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A lazy description of work that completes with a value of type {@code T}, an error, or stopped
 * (P2300R3 [exec.snd]).
 *
 * <p>{@link #connect(Receiver)} binds the work to a receiver and returns the
 * {@link OperationState}; it has no other side effect: nothing runs until
 * {@link OperationState#start()}. A sender is multi-shot (it may be connected any number of
 * times, each connection an independent run) unless its documentation says otherwise; a
 * single-shot sender rejects a second {@code connect} with an {@link IllegalStateException}.
 *
 * <p><b>Algorithms.</b> The default methods are the P2300 sender adaptors. Each returns a new,
 * multi-shot sender (if this one is) and forwards the downstream receiver's env to this sender,
 * changing only what the method says. User functions run on the thread on which this sender
 * completes (unless the method names a scheduler); one that throws completes the operation with
 * {@code setError(thrown)}. Chains of {@code then}/{@code uponError}/{@code uponStopped}/
 * {@code stoppedAsOptional}/{@code stoppedAsError} are fused into one operation, and
 * {@code let*} start their produced sender as a trampolined tail call, so long synchronous chains
 * and recursive loops do not grow the stack. The algorithms check the receiver contract of the
 * senders they connect (completion before start, double completion) and report violations as
 * {@link ProtocolViolationException}s.
 *
 * @param <T> the value type; {@code Void} for senders that complete with no value
 */
@FunctionalInterface
public interface Sender<T> {

    /**
     * Binds this work to {@code receiver}.
     *
     * @param receiver the receiver that gets the completion
     * @return the operation state; call its {@code start()} to run the work
     * @throws NullPointerException if {@code receiver} is null
     */
    OperationState connect(Receiver<? super T> receiver);

    /**
     * {@code then} (P2300R3 [exec.then]): transforms the value with {@code fn}, on the thread that
     * completes this sender. Errors and stopped pass through.
     *
     * @param <R> the result type
     * @param fn maps the value to the result
     * @return the transformed sender
     * @throws NullPointerException if {@code fn} is null
     */
    default <R> Sender<R> then(Function<? super T, ? extends R> fn) {
        return Then.stage(this, Then.ON_VALUE, Objects.requireNonNull(fn, "fn"));
    }

    /**
     * {@code upon_error} (P2300R3 [exec.upon_error]): turns an error into a value computed by
     * {@code fn}, on the thread that completes this sender. Values and stopped pass through.
     *
     * @param fn maps the error to a value
     * @return the sender with errors turned into values
     * @throws NullPointerException if {@code fn} is null
     */
    default Sender<T> uponError(Function<? super Throwable, ? extends T> fn) {
        return Then.stage(this, Then.ON_ERROR, Objects.requireNonNull(fn, "fn"));
    }

    /**
     * {@code upon_stopped} (P2300R3 [exec.upon_stopped], "upon_done"): turns stopped into the value
     * {@code fn} supplies, on the thread that completes this sender. Values and errors pass through.
     *
     * @param fn supplies the value for stopped
     * @return the sender with stopped turned into a value
     * @throws NullPointerException if {@code fn} is null
     */
    default Sender<T> uponStopped(Supplier<? extends T> fn) {
        return Then.stage(this, Then.ON_STOPPED, Objects.requireNonNull(fn, "fn"));
    }

    /**
     * {@code let_value} (P2300R3 [exec.let]): on a value, starts the sender {@code fn} returns
     * (from the thread that completed this sender, trampolined) and completes as it does, on its
     * thread. Errors and stopped pass through. A null sender from {@code fn} is an error.
     *
     * @param <R> the result type
     * @param fn maps the value to the sender to continue with
     * @return the chained sender
     * @throws NullPointerException if {@code fn} is null
     */
    default <R> Sender<R> letValue(Function<? super T, ? extends Sender<? extends R>> fn) {
        return new Let<T, R>(this, Let.VALUE, Objects.requireNonNull(fn, "fn"));
    }

    /**
     * {@code let_error} (P2300R3 [exec.let]): on an error, starts the sender {@code fn} returns
     * and completes as it does. Values and stopped pass through.
     *
     * @param fn maps the error to the sender to continue with
     * @return the sender with errors continued by {@code fn}'s sender
     * @throws NullPointerException if {@code fn} is null
     */
    default Sender<T> letError(Function<? super Throwable, ? extends Sender<? extends T>> fn) {
        return new Let<T, T>(this, Let.ERROR, Objects.requireNonNull(fn, "fn"));
    }

    /**
     * {@code let_stopped} (P2300R3 [exec.let], "let_done"): on stopped, starts the sender
     * {@code fn} supplies and completes as it does. Values and errors pass through.
     *
     * @param fn supplies the sender to continue with on stopped
     * @return the sender with stopped continued by {@code fn}'s sender
     * @throws NullPointerException if {@code fn} is null
     */
    default Sender<T> letStopped(Supplier<? extends Sender<? extends T>> fn) {
        return new Let<T, T>(this, Let.STOPPED, Objects.requireNonNull(fn, "fn"));
    }

    /**
     * {@code on(sch, s)} (P2300R3 [exec.on]): starts this sender on {@code scheduler}; inside it,
     * the env's scheduler ({@link Query#SCHEDULER}) is {@code scheduler}. Completes on whatever
     * thread this sender completes on (for a sender that does not switch threads: the scheduler's).
     * An error or stopped from scheduling is delivered and this sender is not started.
     *
     * @param scheduler where this sender is started
     * @return the sender started on {@code scheduler}
     * @throws NullPointerException if {@code scheduler} is null
     */
    default Sender<T> startsOn(Scheduler scheduler) {
        return new StartsOn<>(Objects.requireNonNull(scheduler, "scheduler"), this);
    }

    /**
     * {@code transfer(s, sch)} (P2300R3 [exec.transfer]): value, error and stopped of this sender
     * are all delivered on {@code scheduler}'s thread. If scheduling fails or is stopped (the
     * downstream stop token reaches the schedule operation), that error or stopped is delivered
     * instead of this sender's result.
     *
     * @param scheduler where the completion is delivered
     * @return the sender completing on {@code scheduler}
     * @throws NullPointerException if {@code scheduler} is null
     */
    default Sender<T> continuesOn(Scheduler scheduler) {
        return new ContinuesOn<>(this, Objects.requireNonNull(scheduler, "scheduler"));
    }

    /**
     * {@code stopped_as_optional} (P2300R3 [exec.stopped_as_optional]): a value {@code v} becomes
     * {@code Optional.ofNullable(v)}, stopped becomes {@code Optional.empty()}, errors pass through.
     * Java's {@code Optional} cannot hold {@code null}, so a {@code null} value (a
     * {@code Sender<Void>}'s always) is indistinguishable from stopped here; use
     * {@link #uponStopped} or {@link #stoppedAsError} when the difference matters.
     *
     * @return a sender of {@code Optional}s that never completes stopped
     */
    default Sender<Optional<T>> stoppedAsOptional() {
        Function<T, Optional<T>> wrap = Optional::ofNullable;
        Supplier<Optional<T>> empty = Optional::empty;
        return Then.stage(Then.stage(this, Then.ON_VALUE, wrap), Then.ON_STOPPED, empty);
    }

    /**
     * {@code stopped_as_error} (P2300R3 [exec.stopped_as_error]): stopped becomes
     * {@code setError(errorSupplier.get())}, on the thread that completes this sender. A null
     * error from the supplier becomes a {@code NullPointerException}.
     *
     * @param errorSupplier supplies the error that replaces stopped
     * @return a sender that completes with an error where this one completes stopped
     * @throws NullPointerException if {@code errorSupplier} is null
     */
    default Sender<T> stoppedAsError(Supplier<? extends Throwable> errorSupplier) {
        return Then.stage(this, Then.STOPPED_AS_ERROR, Objects.requireNonNull(errorSupplier, "errorSupplier"));
    }

    /**
     * {@code stop_when}: this sender sees a stop token that fires when either the downstream
     * receiver's token or {@code token} fires. Completes as this sender does, on its thread.
     *
     * @param token a further stop token this sender obeys
     * @return the sender that also stops when {@code token} fires
     * @throws NullPointerException if {@code token} is null
     */
    default Sender<T> stopWhen(StopToken token) {
        Objects.requireNonNull(token, "token");
        return token.stopPossible() ? new StopWhen<>(this, token) : this;
    }

    /**
     * {@link Senders#timeout(Sender, Duration) timeout}: this sender runs with a stop token that
     * also fires after {@code timeout}; past the deadline the result is a
     * {@code java.util.concurrent.TimeoutException}, once this sender has completed.
     *
     * @param timeout how long after {@code start} stop is requested
     * @return the sender that fails with a {@code TimeoutException} if the deadline comes first
     * @throws NullPointerException if {@code timeout} is null
     */
    default Sender<T> timeout(java.time.Duration timeout) {
        return Senders.timeout(this, timeout);
    }
}
