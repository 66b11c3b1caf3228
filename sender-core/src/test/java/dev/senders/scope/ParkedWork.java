package dev.senders.scope;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;

/**
 * Work that runs until stop is requested on it, then completes stopped (on the requesting
 * thread): cheap enough to have 100,000 of it outstanding. Multi-shot, keeps nothing.
 */
final class ParkedWork implements Sender<Void> {

    static final ParkedWork INSTANCE = new ParkedWork();

    @Override
    public OperationState connect(Receiver<? super Void> r) {
        return () -> r.env().stopToken().onStop(r::setStopped);
    }
}
