package dev.senders;

import dev.senders.internal.signal.Signals;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code when_all} (P2300R3 [exec.when_all]): starts every child and completes once <em>all</em>
 * of them have completed, with the list of their values (in argument order, {@code null}s kept),
 * or with the first error, or stopped.
 *
 * <ul>
 * <li>The first child to complete with an error or stopped requests stop on its siblings; its
 *     outcome wins (an error wins over a later stopped and vice versa: first come, first served).
 *     Later errors are discarded, as in P2300.
 * <li>Values are delivered only if every child completed with a value, even if stop was
 *     requested meanwhile (stdexec does the same).
 * <li>Stop forwarding, stop before start, and the completing thread: see {@link FanOut}.
 * </ul>
 */
final class WhenAll implements Sender<List<Object>> {

    private final Sender<?>[] children;

    WhenAll(Sender<?>[] children) {
        this.children = children;
    }

    @Override
    public OperationState connect(Receiver<? super List<Object>> receiver) {
        return new Op(children, Objects.requireNonNull(receiver, "receiver"));
    }

    private static final class Op extends FanOut<List<Object>> {
        private final Object[] values;

        Op(Sender<?>[] children, Receiver<? super List<Object>> downstream) {
            super(children, downstream);
            this.values = new Object[children.length];
        }

        @Override
        String algorithm() {
            return "whenAll";
        }

        @Override
        void childValue(int index, @Nullable Object value) {
            values[index] = value;   // published to the last arriver by the decrement in arrive()
            arrive();
        }

        @Override
        void childStopped(int index) {
            claim(STOPPED, null);
            arrive();
        }

        @Override
        void completeUnclaimed() {
            Signals.setValue(downstream, Collections.unmodifiableList(Arrays.asList(values)));
        }
    }
}
