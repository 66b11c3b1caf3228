package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.Trampoline;

/**
 * Starts an operation through the per-thread {@link Trampoline} (inline unless deep in nested
 * starts: stack safety of Single -> sender -> Single nesting); a {@code start()} that throws is
 * turned into the receiver's error.
 */
final class RxStart {

    private RxStart() {}

    static void start(OperationState state, Receiver<?> receiver) {
        try {
            Trampoline.start(state, receiver);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Signals.setError(receiver, t);
        }
    }
}
