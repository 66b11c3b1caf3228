package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.Trampoline;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * {@link Senders#toCompletableFuture(Sender)}: a {@link CompletableFuture} that is also the
 * receiver of the work it was created for.
 *
 * <ul>
 * <li>The work is started by the factory, on the calling thread; the future is completed on the
 *     thread that completes the work.
 * <li>{@code setValue} completes normally, {@code setError} exceptionally with the error,
 *     {@code setStopped} exceptionally with a {@link CancellationException} (so
 *     {@link #isCancelled()} is {@code true}).
 * <li>{@link #cancel(boolean)} cancels the future at once (as every {@code CompletableFuture}
 *     does) and requests stop on the work through the receiver's stop token; the work's later
 *     completion is then ignored. {@code completeExceptionally}/{@code complete} by a user do not
 *     stop the work (they only complete the future), as for any {@code CompletableFuture}.
 * <li>Dependent stages ({@code thenApply}, ...) are plain {@code CompletableFuture}s.
 * </ul>
 */
final class SenderFuture<T> extends CompletableFuture<T> implements Receiver<T> {

    private final InplaceStopSource stop = new InplaceStopSource();
    private final Env env = Env.of(Query.STOP_TOKEN, stop.token());

    static <T> CompletableFuture<T> start(Sender<T> sender) {
        SenderFuture<T> f = new SenderFuture<>();
        // fresh trampoline frame: synchronous work completes before we return, so a caller deep
        // in a let chain can join() the future without waiting on its own deferred work
        Trampoline.isolated(() -> {
            try {
                Connect.checked(sender, f).start();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                f.completeExceptionally(t);
            }
            return null;
        });
        return f;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        stop.requestStop();
        return cancelled;
    }

    @Override
    public void setValue(@Nullable T value) {
        complete(value);
    }

    @Override
    public void setError(Throwable error) {
        completeExceptionally(error);
    }

    @Override
    public void setStopped() {
        completeExceptionally(new CancellationException("the sender completed with setStopped"));
    }

    @Override
    public Env env() {
        return env;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
