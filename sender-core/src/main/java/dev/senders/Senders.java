package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ImmediateOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Sender factories and consumers (P2300R3 [exec.factories], [exec.consumers]).
 *
 * <p>Every sender made here is multi-shot and completes on the thread that starts it unless its
 * documentation names a scheduler.
 */
public final class Senders {

    private static final Sender<Void> JUST_VOID = just(null);
    private static final Sender<Object> JUST_STOPPED = receiver ->
            ImmediateOperation.stopped(Objects.requireNonNull(receiver, "receiver"));

    private Senders() {}

    /**
     * {@code just()}: completes with {@code setValue(null)}.
     *
     * @return a sender of {@code null}
     */
    public static Sender<Void> just() {
        return JUST_VOID;
    }

    /**
     * {@code just(v)}: completes with {@code setValue(value)}; {@code value} may be null.
     *
     * @param <T> the value type
     * @param value the value (may be {@code null})
     * @return a sender of {@code value}
     */
    public static <T> Sender<T> just(@Nullable T value) {
        return receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return new ImmediateOperation<T>(receiver, ImmediateOperation.VALUE, value);
        };
    }

    /**
     * {@code just_error(e)}: completes with {@code setError(error)}.
     *
     * @param <T> the value type the sender claims
     * @param error the error
     * @return a sender of {@code error}
     */
    public static <T> Sender<T> justError(Throwable error) {
        Objects.requireNonNull(error, "error");
        return receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return new ImmediateOperation<T>(receiver, ImmediateOperation.ERROR, error);
        };
    }

    /**
     * {@code just_stopped()}: completes with {@code setStopped()}.
     *
     * @param <T> the value type the sender claims
     * @return a sender that completes stopped
     */
    @SuppressWarnings("unchecked")
    public static <T> Sender<T> justStopped() {
        return (Sender<T>) JUST_STOPPED;
    }

    /**
     * {@code schedule(sch)}: completes with no value on {@code scheduler}.
     *
     * @param scheduler where to complete
     * @return {@code scheduler.schedule()}
     * @throws dev.senders.ProtocolViolationException if the scheduler's {@code schedule()} returns null
     */
    public static Sender<Void> schedule(Scheduler scheduler) {
        return Connect.schedule(Objects.requireNonNull(scheduler, "scheduler"));
    }

    /**
     * {@code read(q)}: completes with the value the receiver's env yields for {@code query}.
     *
     * @param <V> the value type
     * @param query the key to look up in the receiver's env
     * @return a sender of the env's value for {@code query}
     */
    public static <V> Sender<V> read(Query<V> query) {
        Objects.requireNonNull(query, "query");
        return receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return new ImmediateOperation<V>(receiver, ImmediateOperation.READ, query);
        };
    }

    /**
     * {@code sync_wait}: starts {@code sender} and blocks the calling thread until it completes,
     * running work scheduled on the env's scheduler (a {@link RunLoop}) on this thread meanwhile.
     * Reports the result as {@link java.util.concurrent.CompletableFuture#join()} does:
     *
     * <ul>
     * <li>a value is returned ({@code null} included);
     * <li>an unchecked error is rethrown as is, a checked one wrapped in a
     *     {@link java.util.concurrent.CompletionException};
     * <li>stopped throws {@link java.util.concurrent.CancellationException}, distinct from a
     *     {@code null} value.
     * </ul>
     *
     * <p><b>Interrupts</b> end the wait, as they end {@code Future.get()}: when the calling thread
     * is interrupted while it waits (or was already interrupted when the work did not complete
     * during {@code start}), stop is requested on the work, on this thread, and
     * {@code syncWait} throws a {@link java.util.concurrent.CancellationException} whose cause is
     * an {@link InterruptedException}, with the thread's interrupt status set. If the work
     * completes during that stop request, its value or error is reported instead (stopped still
     * throws the interrupt's exception). Work that does not honour stop is left running: its
     * later error goes to {@link Hooks#onErrorDropped}, its value is discarded, and work it
     * schedules on the run loop completes stopped. A sender that completes during {@code start}
     * is reported whatever the interrupt status.
     *
     * @throws IllegalStateException if called on a thread that must not block (a Reactor
     *         {@code parallel()} worker, a Netty event loop, an RxJava computation thread, the
     *         library's timer thread: {@link Hooks#isNonBlockingThread}), before anything is started
     * @throws NullPointerException if {@code sender} is null
     *
     * @param <T> the value type
     * @param sender the work to run and wait for
     * @return the sender's value (may be {@code null})
     */
    public static <T> @Nullable T syncWait(Sender<T> sender) {
        return SyncWait.await(Objects.requireNonNull(sender, "sender"));
    }

    /**
     * {@link #syncWait(Sender)} with a deadline: if the work has not completed {@code timeout}
     * after the call, stop is requested on it (on this thread) and this throws
     * {@link TimeoutException}, as {@code Future.get(timeout, unit)} does, unless the work
     * completed during that stop request with a value or an error, which is then reported. The
     * wait does not depend on the work honouring stop: it returns at the deadline whatever the
     * work does (what happens to work left running: see {@link #syncWait(Sender)}). A zero or
     * negative timeout still reports work that completes during {@code start}. Interrupts,
     * results and the non-blocking-thread check are those of {@link #syncWait(Sender)}.
     *
     * <p>The deadline is measured on the real clock, also under virtual time
     * ({@code senders-test}'s {@code VirtualTime}): the calling thread blocks, so it cannot be
     * the one that advances a virtual clock. Bound the work itself with {@link #timeout} to
     * have a deadline that follows virtual time.
     *
     * @param <T> the value type
     * @param sender the work to run and wait for
     * @param timeout how long to wait, from the call, before requesting stop and giving up
     * @return the sender's value (may be {@code null})
     * @throws TimeoutException if the work did not complete in time
     * @throws NullPointerException if an argument is null
     */
    public static <T> @Nullable T syncWait(Sender<T> sender, Duration timeout) throws TimeoutException {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(timeout, "timeout");
        return SyncWait.await(sender, timeout);
    }

    /**
     * {@code timeout(sender, d)}: {@code sender} runs with a stop token that also fires once
     * {@code timeout} has passed since {@code start}. If that deadline comes first, the result is
     * {@code setError(TimeoutException)}, delivered once {@code sender} has completed after the
     * stop request (its value is discarded; its error is added to the {@code TimeoutException}
     * as suppressed). Otherwise {@code sender}'s own completion passes through and the timer
     * entry is cancelled. The downstream receiver's stop request still reaches {@code sender}.
     *
     * <p>Structured, unlike Reactor's {@code timeout}: the operation never completes while
     * {@code sender} is still running, so nothing is left running unowned; work that ignores
     * stop requests keeps it waiting (bound a caller's wait with {@link #syncWait(Sender,
     * Duration)} or {@code Scopes.joinOrStop}, which return at their deadline).
     *
     * <p>Threads: one shared daemon timer thread ({@code senders-timer}, created on first use,
     * gone after 10 s idle) serves every timeout; a pending timeout is one queued task. The stop
     * request runs {@code sender}'s stop callbacks on that thread, and work that completes in
     * its stop callback delivers the {@code TimeoutException} there: keep such code short, or
     * move on with {@link Sender#continuesOn}. Every other completion arrives on
     * {@code sender}'s thread. A zero or negative timeout requests stop on the starting thread
     * before {@code sender} starts.
     *
     * <p>Under virtual time ({@code senders-test}'s {@code VirtualTime}) the deadline follows the
     * virtual clock: it fires on the thread that advances that clock past it, and never on its own.
     *
     * @param <T> the value type
     * @param sender the work to run under the deadline
     * @param timeout how long after {@code start} stop is requested
     * @return the sender that completes as {@code sender} does, or with a {@code TimeoutException} if the deadline comes first
     * @throws NullPointerException if an argument is null
     */
    public static <T> Sender<T> timeout(Sender<T> sender, Duration timeout) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(timeout, "timeout");
        return new Timeout<>(sender, timeout);
    }

    /**
     * {@code when_all} (P2300R3 [exec.when_all]) over same-typed senders: completes with their
     * values as an unmodifiable list in argument order ({@code null}s allowed) once every child
     * completed; or with the first error or stopped, which requests stop on the other children
     * (they see the token of a stop source owned by the operation, and the downstream token's
     * stop request is forwarded to it) and is delivered only after all of them completed. Stop
     * requested before {@code start}: completes stopped and starts no child. An empty list
     * completes with an empty list. Completes on the thread of the last child to complete.
     *
     * @param <T> the value type
     * @param senders the children, started in list order
     * @return a sender of the list of the children's values
     * @throws NullPointerException if {@code senders} or any element is null
     */
    @SuppressWarnings("unchecked")
    public static <T> Sender<List<T>> whenAll(List<? extends Sender<? extends T>> senders) {
        Objects.requireNonNull(senders, "senders");
        Sender<?>[] children = senders.toArray(new Sender<?>[0]);
        for (int i = 0; i < children.length; i++) {
            Objects.requireNonNull(children[i], "senders[" + i + "]");
        }
        return (Sender<List<T>>) (Sender<?>) new WhenAll(children);
    }

    /**
     * {@link #whenAll(List)} with varargs.
     *
     * @param <T> the value type
     * @param senders the children, started in argument order
     * @return a sender of the list of the children's values
     */
    @SafeVarargs
    public static <T> Sender<List<T>> whenAll(Sender<? extends T>... senders) {
        Objects.requireNonNull(senders, "senders");
        List<Sender<? extends T>> list = new ArrayList<>(senders.length);
        for (int i = 0; i < senders.length; i++) {
            list.add(Objects.requireNonNull(senders[i], "senders[" + i + "]"));
        }
        return whenAll(list);
    }

    /**
     * {@link #whenAll(List)} of two senders of different types, combined by {@code combiner} (on
     * the thread of the last child to complete; if it throws, the operation completes with that error).
     *
     * @param <A> the first value type
     * @param <B> the second value type
     * @param <R> the combined type
     * @param first the first child
     * @param second the second child
     * @param combiner combines the two values
     * @return a sender of the combined value
     * @throws NullPointerException if any argument is null
     */
    @SuppressWarnings("unchecked")
    public static <A, B, R> Sender<R> whenAll(Sender<? extends A> first, Sender<? extends B> second,
            BiFunction<? super A, ? super B, ? extends R> combiner) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        Objects.requireNonNull(combiner, "combiner");
        Sender<List<Object>> all = new WhenAll(new Sender<?>[] {first, second});
        return all.then(list -> combiner.apply((A) list.get(0), (B) list.get(1)));
    }

    /**
     * {@code when_any} (stdexec {@code exec::when_any}): the first child to complete with a value
     * or an error wins and requests stop on the others; the winner's result is delivered once all
     * children completed, on the thread of the last one. Stopped children never win: if all
     * complete stopped, so does the operation. Stop requested before {@code start}: completes
     * stopped and starts no child; the downstream token's stop request is forwarded to the children.
     *
     * @param <T> the value type
     * @param senders the children, started in list order
     * @return a sender of the winner's result
     * @throws NullPointerException if {@code senders} or any element is null
     * @throws IllegalArgumentException if {@code senders} is empty
     */
    @SuppressWarnings("unchecked")
    public static <T> Sender<T> whenAny(List<? extends Sender<? extends T>> senders) {
        Objects.requireNonNull(senders, "senders");
        Sender<? extends T>[] children = (Sender<? extends T>[]) senders.toArray(new Sender<?>[0]);
        if (children.length == 0) {
            throw new IllegalArgumentException("whenAny needs at least one sender");
        }
        for (int i = 0; i < children.length; i++) {
            Objects.requireNonNull(children[i], "senders[" + i + "]");
        }
        return new WhenAny<>(children);
    }

    /**
     * {@link #whenAny(List)} with varargs.
     *
     * @param <T> the value type
     * @param senders the children, started in argument order
     * @return a sender of the winner's result
     */
    @SafeVarargs
    public static <T> Sender<T> whenAny(Sender<? extends T>... senders) {
        Objects.requireNonNull(senders, "senders");
        List<Sender<? extends T>> list = new ArrayList<>(senders.length);
        for (int i = 0; i < senders.length; i++) {
            list.add(Objects.requireNonNull(senders[i], "senders[" + i + "]"));
        }
        return whenAny(list);
    }

    /**
     * A sender that, each time it is started, obtains a stage from {@code stageSupplier} (lazily,
     * like {@code Mono.fromFuture(Supplier)}) and completes when that stage completes, on the
     * thread that completes the stage: value -> {@code setValue}, exception -> {@code setError}
     * ({@code CompletionException}/{@code ExecutionException} unwrapped),
     * {@code CancellationException} -> {@code setStopped}. A stop request on the receiver's token
     * calls {@code cancel(false)} on the stage when it is a {@code Future} (a
     * {@code CompletableFuture} is) and completes stopped at once, on the stopping thread; a stage
     * that cannot be cancelled is detached (its later completion is ignored).
     *
     * @param <T> the value type
     * @param stageSupplier called on each start for the stage to observe
     * @return a sender of each obtained stage's result
     * @throws NullPointerException if {@code stageSupplier} is null
     */
    public static <T> Sender<T> fromCompletionStage(Supplier<? extends CompletionStage<? extends T>> stageSupplier) {
        return new FromCompletionStage<>(Objects.requireNonNull(stageSupplier, "stageSupplier"));
    }

    /**
     * A sender observing an already running {@code stage}; every connection observes the same
     * stage. As {@link #fromCompletionStage(Supplier)}, including: a stop request cancels the
     * stage (like {@code Mono.fromFuture}), which all other observers then see as stopped.
     *
     * @param <T> the value type
     * @param stage the stage to observe
     * @return a sender of the stage's result
     * @throws NullPointerException if {@code stage} is null
     */
    public static <T> Sender<T> fromCompletionStage(CompletionStage<? extends T> stage) {
        Objects.requireNonNull(stage, "stage");
        return new FromCompletionStage<>(() -> stage);
    }

    /**
     * Starts {@code sender} now, on the calling thread, and returns a future of its result,
     * completed on the thread that completes the work: value -> normal completion, error ->
     * exceptional, stopped -> exceptional with a {@code CancellationException}. The future's
     * {@code cancel} completes it with a {@code CancellationException} at once and requests stop on
     * the work (through the stop token of the receiver's env). Exceptions thrown by
     * {@code connect}/{@code start} complete the future exceptionally.
     *
     * @param <T> the value type
     * @param sender the work, started now
     * @return a future of the work's result
     * @throws NullPointerException if {@code sender} is null
     */
    public static <T> CompletableFuture<T> toCompletableFuture(Sender<T> sender) {
        return SenderFuture.start(Objects.requireNonNull(sender, "sender"));
    }
}
