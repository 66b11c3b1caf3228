package dev.senders.internal.signal;

import dev.senders.Env;
import dev.senders.Receiver;
import org.jspecify.annotations.Nullable;

/**
 * A {@link GuardedReceiver} that passes the child's completions on to a downstream receiver
 * (shared by the algorithms of {@code dev.senders} and {@code dev.senders.scope}; not public API).
 * By default the child sees the downstream's env, and its error and stopped completions are
 * forwarded as they are, on the thread that delivers them. The value is forwarded as it is too,
 * which fits a subclass whose downstream takes the child's values; a subclass that maps the value
 * overrides {@link #onValue}, and any subclass overrides what else it changes.
 *
 * @param <T> the child's value type
 * @param <R> the downstream's value type
 */
public abstract class ForwardingReceiver<T, R> extends GuardedReceiver<T> {

    /** The receiver the completions go to. */
    protected final Receiver<? super R> downstream;

    /** @param downstream the receiver the completions go to */
    protected ForwardingReceiver(Receiver<? super R> downstream) {
        this.downstream = downstream;
    }

    /** The downstream's env, unless overridden. */
    @Override
    public Env env() {
        return downstream.env();
    }

    /**
     * Forwards the value to the downstream as it is, unless overridden: only for a subclass whose
     * {@code R} is {@code T} or a supertype of it.
     */
    @Override
    @SuppressWarnings("unchecked")
    protected void onValue(@Nullable T value) {
        Signals.setValue(downstream, (R) value);
    }

    /** Forwards the error to the downstream, unless overridden. */
    @Override
    protected void onError(Throwable error) {
        Signals.setError(downstream, error);
    }

    /** Forwards the stopped completion to the downstream, unless overridden. */
    @Override
    protected void onStopped() {
        Signals.setStopped(downstream);
    }
}
