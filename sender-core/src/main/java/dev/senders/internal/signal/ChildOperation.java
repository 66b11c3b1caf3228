package dev.senders.internal.signal;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import org.jspecify.annotations.Nullable;

/**
 * The operation of an algorithm over one child sender, which is also the child's receiver
 * ({@link ForwardingReceiver}; not public API): {@link #start()} starts the child once the
 * receiver contract's guard allows it ({@link #beginStart()}).
 *
 * @param <T> the child's value type
 * @param <R> the downstream's value type
 */
public abstract class ChildOperation<T, R> extends ForwardingReceiver<T, R> implements OperationState {

    @SuppressWarnings("NullAway.Init") // set by connectChild, which every subclass constructor calls
    private OperationState child;

    /** @param downstream the receiver the completions go to */
    protected ChildOperation(Receiver<? super R> downstream) {
        super(downstream);
    }

    /**
     * Connects the child to this receiver ({@link Connect#checked}): call it last in the
     * subclass's constructor, once everything the child may query (its env) is set.
     *
     * @param source the child sender
     */
    protected final void connectChild(Sender<? extends T> source) {
        child = Connect.checked(source, this);
    }

    /** Starts the child, unless it broke the receiver contract before (see {@link #beginStart()}). */
    @Override
    public void start() {
        if (beginStart()) {
            child.start();
        }
    }

    /**
     * Starts the child; for a subclass whose {@link #start()} does more between
     * {@link #beginStart()} and the child's start.
     */
    protected final void startChild() {
        child.start();
    }
}
