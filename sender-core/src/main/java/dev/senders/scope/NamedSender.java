package dev.senders.scope;

import dev.senders.internal.signal.Connect;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;

/**
 * What {@link Scopes#named} returns: {@code source} with a name that the library's scopes read
 * when they associate it. Connected anywhere else, it is {@code source} itself (connect is
 * forwarded; no operation of its own).
 */
final class NamedSender<T> implements Sender<T> {

    final Sender<T> source;
    final String name;

    NamedSender(Sender<T> source, String name) {
        this.source = source;
        this.name = name;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return Connect.checked(source, receiver); // a null names the broken sender, not this wrapper
    }

    @Override
    public String toString() {
        return "named('" + name + "', " + source + ")";
    }
}
