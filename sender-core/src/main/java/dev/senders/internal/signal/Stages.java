package dev.senders.internal.signal;

import dev.senders.Sender;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The stages of a {@code then} / {@code uponError} / {@code uponStopped} / {@code stoppedAsError}
 * chain, in order, and the one loop that applies them to a completion signal: the sender's own
 * operation uses it, and so do the adapters' conversions that apply a chain directly to a
 * publisher's signal ({@code toMono(fromMono(m).then(f))}). Immutable.
 *
 * <p>Every stage runs on the thread that delivers the signal; a stage that throws turns the signal
 * into an error for the stages after it (P2300: user code that throws becomes {@code set_error});
 * a fatal error ({@link Signals#throwIfFatal}) propagates.
 */
public final class Stages {

    /** A stage's kind: {@code then}, {@code uponError}, {@code uponStopped}, {@code stoppedAsError}. */
    public static final byte ON_VALUE = 0, ON_ERROR = 1, ON_STOPPED = 2, STOPPED_AS_ERROR = 3;
    /** A signal's channel, as {@link #apply} takes it. */
    public static final byte VALUE = 0, ERROR = 1, STOPPED = 2;

    private final byte[] kinds;
    private final Object[] fns;

    /**
     * @param kinds each stage's kind
     * @param fns each stage's function: a {@code Function} for {@link #ON_VALUE} and {@link #ON_ERROR},
     *            a {@code Supplier} for the stopped kinds
     */
    public Stages(byte[] kinds, Object[] fns) {
        this.kinds = kinds;
        this.fns = fns;
        this.onlyThen = kinds.length == 1 && kinds[0] == ON_VALUE ? fns[0] : null;
    }

    /** The function of a chain that is one {@code then}, the commonest: applied without the loop. */
    private final @Nullable Object onlyThen;

    /** Where {@link #apply} delivers the signal the last stage leaves. */
    public interface Sink {
        /** The value channel. */
        void value(@Nullable Object value);

        /** The error channel. */
        void error(Throwable error);

        /** The stopped channel. */
        void stopped();
    }

    /**
     * A sender whose result is a chain of stages applied to another sender's ({@code Sender.then}
     * and its kin). A conversion that recognizes the source may apply the stages itself.
     */
    public interface Chain {
        /** The sender the stages apply to (never itself a chain). */
        Sender<?> stagesSource();

        /** The stages, in order. */
        Stages stages();
    }

    /** {@link #apply} for a chain of one {@code then}: only a value goes through {@code f}. */
    private static void applyThen(Function<Object, Object> f, byte channel, @Nullable Object payload, Sink sink) {
        if (channel == VALUE) {
            Object r;
            try {
                r = f.apply(payload);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                sink.error(t);
                return;
            }
            sink.value(r);
        } else if (channel == ERROR) {
            sink.error((Throwable) Objects.requireNonNull(payload));
        } else {
            sink.stopped();
        }
    }

    /**
     * These stages followed by {@code next}'s: what applying these, delivering the result, and
     * applying {@code next} to it would do, as one chain.
     */
    public Stages andThen(Stages next) {
        int n = kinds.length;
        byte[] k = Arrays.copyOf(kinds, n + next.kinds.length);
        Object[] f = Arrays.copyOf(fns, n + next.fns.length);
        System.arraycopy(next.kinds, 0, k, n, next.kinds.length);
        System.arraycopy(next.fns, 0, f, n, next.fns.length);
        return new Stages(k, f);
    }

    /**
     * Whether a stopped signal passes through every stage untouched: no {@code uponStopped} or
     * {@code stoppedAsError}, so no user code runs for a stop.
     */
    public boolean stoppedPassesThrough() {
        for (byte k : kinds) {
            if (k == ON_STOPPED || k == STOPPED_AS_ERROR) {
                return false;
            }
        }
        return true;
    }

    /**
     * Applies every stage to the signal ({@code channel} {@link #VALUE}, {@link #ERROR} or
     * {@link #STOPPED}, with its payload: the value, the error, or {@code null}), then delivers what
     * the last stage leaves to {@code sink}, on this thread.
     */
    @SuppressWarnings("unchecked") // each stage's function has its kind's type
    public void apply(byte channel, @Nullable Object payload, Sink sink) {
        Object f = onlyThen;
        if (f != null) {
            applyThen((Function<Object, Object>) f, channel, payload, sink);
            return;
        }
        byte signal = channel;
        for (int i = 0; i < kinds.length; i++) {
            byte k = kinds[i];
            try {
                if (k == ON_VALUE && signal == VALUE) {
                    payload = ((Function<Object, Object>) fns[i]).apply(payload);
                } else if (k == ON_ERROR && signal == ERROR) {
                    payload = ((Function<Object, Object>) fns[i]).apply(payload);
                    signal = VALUE;
                } else if (k == ON_STOPPED && signal == STOPPED) {
                    payload = ((Supplier<Object>) fns[i]).get();
                    signal = VALUE;
                } else if (k == STOPPED_AS_ERROR && signal == STOPPED) {
                    payload = Objects.requireNonNull(((Supplier<Object>) fns[i]).get(),
                            "stoppedAsError: the supplier returned null");
                    signal = ERROR;
                }
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                payload = t;
                signal = ERROR;
            }
        }
        if (signal == VALUE) {
            sink.value(payload);
        } else if (signal == ERROR) {
            sink.error((Throwable) Objects.requireNonNull(payload)); // ERROR carries the error
        } else {
            sink.stopped();
        }
    }
}
