package dev.senders;

import dev.senders.internal.Signals;
import java.util.Objects;

/**
 * Sender factories and consumers (P2300R3 [exec.factories], [exec.consumers]).
 *
 * <p>Every sender made here is multi-shot and completes on the thread that starts it unless its
 * documentation names a scheduler.
 */
public final class Senders {

    private static final Sender<Void> JUST_VOID = just(null);
    private static final Sender<Object> JUST_STOPPED = receiver -> {
        Objects.requireNonNull(receiver, "receiver");
        return () -> Signals.setStopped(receiver);
    };

    private Senders() {}

    /** {@code just()}: completes with {@code setValue(null)}. */
    public static Sender<Void> just() {
        return JUST_VOID;
    }

    /** {@code just(v)}: completes with {@code setValue(value)}; {@code value} may be null. */
    public static <T> Sender<T> just(T value) {
        return receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return () -> Signals.setValue(receiver, value);
        };
    }

    /** {@code just_error(e)}: completes with {@code setError(error)}. */
    public static <T> Sender<T> justError(Throwable error) {
        Objects.requireNonNull(error, "error");
        return receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return () -> Signals.setError(receiver, error);
        };
    }

    /** {@code just_stopped()}: completes with {@code setStopped()}. */
    @SuppressWarnings("unchecked")
    public static <T> Sender<T> justStopped() {
        return (Sender<T>) JUST_STOPPED;
    }

    /** {@code schedule(sch)}: completes with no value on {@code scheduler}. */
    public static Sender<Void> schedule(Scheduler scheduler) {
        return Objects.requireNonNull(scheduler, "scheduler").schedule();
    }

    /** {@code read(q)}: completes with the value the receiver's env yields for {@code query}. */
    public static <V> Sender<V> read(Query<V> query) {
        Objects.requireNonNull(query, "query");
        return receiver -> {
            Objects.requireNonNull(receiver, "receiver");
            return () -> {
                V v;
                try {
                    v = receiver.env().get(query);
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    Signals.setError(receiver, t);
                    return;
                }
                Signals.setValue(receiver, v);
            };
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
     * Interrupting the waiting thread requests stop on the work; {@code syncWait} still waits for
     * it to complete and returns with the interrupt status set.
     */
    public static <T> T syncWait(Sender<T> sender) {
        return SyncWait.await(Objects.requireNonNull(sender, "sender"));
    }
}
