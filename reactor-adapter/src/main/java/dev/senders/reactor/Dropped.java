package dev.senders.reactor;

import dev.senders.Hooks;
import dev.senders.internal.signal.Signals;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;
import org.jspecify.annotations.Nullable;

/**
 * Where the adapter sends what it cannot deliver: Reactor's own hooks, with the subscriber's
 * context (so per-subscription hooks written with {@code contextWrite} apply). A hook that throws
 * must not throw into a foreign thread: its failure goes to {@link Hooks#onErrorDropped}.
 */
final class Dropped {

    private Dropped() {}

    /** {@link Operators#onErrorDropped}: an error no subscriber or receiver can take. */
    static void error(Throwable e, Context ctx) {
        try {
            Operators.onErrorDropped(e, ctx);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            if (t != e) {
                t.addSuppressed(e);
            }
            Hooks.onErrorDropped(t);
        }
    }

    /** {@link Operators#onNextDropped}: an element that arrived after the source terminated. */
    static void next(Object v, Context ctx) {
        try {
            Operators.onNextDropped(v, ctx);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Hooks.onErrorDropped(t);
        }
    }

    /** {@link Operators#onDiscardMultiple(java.util.Collection, Context)}: a buffer given up. */
    static void discardAll(java.util.Collection<?> values, Context ctx) {
        try {
            Operators.onDiscardMultiple(values, ctx);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Hooks.onErrorDropped(t);
        }
    }

    /** {@link Operators#onDiscard}: an element given up because of a cancellation (as Reactor does). */
    static void discard(@Nullable Object v, Context ctx) {
        try {
            Operators.onDiscard(v, ctx);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Hooks.onErrorDropped(t);
        }
    }
}
