package dev.senders.internal.signal;

import dev.senders.StopCallback;
import dev.senders.internal.Nulls;
import org.jspecify.annotations.Nullable;

/**
 * A {@link StopNode} that is also the {@link StopCallback} of one {@code Runnable} given to
 * {@code onStop}: the stop source's ordinary registration node, and the built-in registration of
 * a stoppable scope's spawn receiver. The callback runs at most once, on the stopping thread (or
 * inline in {@link StopNode.Host#link}); {@link #close()} deregisters and drops the callback, so a
 * registration kept after it ended does not keep what the callback holds reachable. Not public
 * API: may change without notice.
 *
 * <p>The implementor keeps the callback in a plain field, written before {@link StopNode.Host#link}
 * (published to the stopper by the link's CAS of the source's head) and cleared by
 * {@link #takeCallback()}.
 */
public interface CallbackNode extends StopNode, StopCallback {

    /**
     * Returns the callback and clears it. Called once by the stopper, before any {@code close}
     * clears it (the source runs a node once), and by {@code close}, which ignores the result.
     *
     * @return the callback, or {@code null} once it was taken
     */
    @Nullable Runnable takeCallback();

    /**
     * The stop token this node is linked into.
     *
     * @return the host that links and unlinks this node
     */
    StopNode.Host host();

    @Override
    default void onStopRequested() {
        Nulls.nonNull(takeCallback()).run();
    }

    /** Deregisters (see {@link StopNode.Host#unlink}) and drops the callback; idempotent. */
    @Override
    default void close() {
        host().unlink(this);
        takeCallback(); // cancelled, done, or inside the callback (which already took it)
    }
}
