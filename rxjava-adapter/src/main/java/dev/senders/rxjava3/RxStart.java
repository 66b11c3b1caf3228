package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.internal.Signals;

/** Starts an operation; a {@code start()} that throws is turned into the receiver's error ({@link Signals#start}). */
final class RxStart {

    private RxStart() {}

    static void start(OperationState state, Receiver<?> receiver) {
        Signals.start(state, receiver);
    }
}
