package dev.senders;

import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CompletionStage} as a sender. Each {@code start} obtains the stage from the supplier
 * (a fixed stage is a constant supplier) and completes the receiver when the stage completes, on
 * the thread that completes the stage (or the starting thread if it is already complete):
 *
 * <ul>
 * <li>a value -> {@code setValue}; an exception -> {@code setError} with
 *     {@link CompletionException}/{@link ExecutionException} wrappers removed;
 *     a {@link CancellationException} -> {@code setStopped};
 * <li>a stop request on the receiver's token calls {@code cancel(false)} on the stage if it is a
 *     {@link Future} (every {@code CompletableFuture} is; {@code toCompletableFuture()} is not
 *     used, since it may return a copy whose cancellation does not reach the stage); the
 *     operation then completes stopped at once, on the stopping thread, and ignores the stage's
 *     later completion (a stage that cannot be cancelled is detached, as {@code Mono.fromFuture}
 *     does on cancel);
 * <li>stop already requested at {@code start}: completes stopped, the supplier is not called.
 * </ul>
 */
final class FromCompletionStage<T> implements Sender<T> {
    /*
     * done (0 -> 1 by CAS) decides between the stage's completion and the direct
     * stop path; the stop callback is closed before the receiver is completed.
     */

    private final Supplier<? extends CompletionStage<? extends T>> supplier;

    FromCompletionStage(Supplier<? extends CompletionStage<? extends T>> supplier) {
        this.supplier = supplier;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Op<>(supplier, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op<T> implements OperationState {
        private final Supplier<? extends CompletionStage<? extends T>> supplier;
        private final Receiver<? super T> receiver;
        private volatile int done;
        private volatile @Nullable StopCallback callback;
        private @Nullable CompletionStage<? extends T> stage;
        private boolean started;

        Op(Supplier<? extends CompletionStage<? extends T>> supplier, Receiver<? super T> receiver) {
            this.supplier = supplier;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            if (started) {
                throw ImmediateOperation.startedTwice("fromCompletionStage's operation");
            }
            started = true;
            StopToken token = receiver.env().stopToken();
            if (token.stopRequested()) {
                Signals.setStopped(receiver);
                return;
            }
            CompletionStage<? extends T> s;
            try {
                s = Objects.requireNonNull(supplier.get(), "fromCompletionStage: the supplier returned null");
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(receiver, t);
                return;
            }
            stage = s;
            if (token.stopPossible()) {
                callback = token.onStop(this::cancel);
            }
            try {
                s.whenComplete(this::complete);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                complete(null, t);
            }
        }

        private void cancel() {
            CompletionStage<? extends T> s = stage;
            if (s instanceof Future) {
                try {
                    ((Future<?>) s).cancel(false); // a CompletableFuture completes us from inside cancel
                } catch (UnsupportedOperationException notCancellable) {
                    // e.g. minimalCompletionStage(): detach below
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    Hooks.onErrorDropped(t);
                }
            }
            if (DONE.compareAndSet(this, 0, 1)) { // not cancellable, or cancel did not complete it: detach
                StopCallback c = callback;
                if (c != null) {
                    c.close();
                }
                Signals.setStopped(receiver);
            }
        }

        private void complete(@Nullable T value, Throwable error) {
            if (!DONE.compareAndSet(this, 0, 1)) {
                return;
            }
            StopCallback c = callback;
            if (c != null) {
                c.close();
            }
            if (error == null) {
                Signals.setValue(receiver, value);
                return;
            }
            Throwable e = unwrap(error);
            if (e instanceof CancellationException) {
                Signals.setStopped(receiver);
            } else {
                Signals.setError(receiver, e);
            }
        }
    }

    static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static final VarHandle DONE = VarHandles.field(MethodHandles.lookup(), Op.class, "done", int.class);
}
