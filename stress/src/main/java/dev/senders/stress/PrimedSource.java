package dev.senders.stress;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An {@link InplaceStopSource} primed so that the next deregistration sweeps.
 *
 * <p>{@code InplaceStopSource} unlinks cancelled registrations lazily: the deregistration that
 * makes the count of cancelled-but-linked registrations reach {@code sweepAt} (16 on a fresh
 * source) sweeps the list (a registration closed while it is the head is popped instead, so the
 * fixture keeps a live one on top). This fixture registers {@value #REGISTERED} callbacks and
 * closes the {@value #CLOSED_UP_FRONT} at even indices 0..28 (below the threshold: no sweep yet),
 * so they are interleaved with live ones all along the list. {@link #triggerSweep()} closes
 * callback 29, which is the 16th cancellation: that close runs the sweep, racing whatever the
 * test's other actors do. Callback 30, the head, stays live ({@link #closeHead()} pops it).
 */
final class PrimedSource {

    static final int REGISTERED = 31;
    static final int CLOSED_UP_FRONT = 15;
    static final int TRIGGER = 29;
    static final int HEAD = 30;

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback[] callbacks = new Probes.Callback[REGISTERED];
    final StopCallback[] registrations = new StopCallback[REGISTERED];

    PrimedSource() {
        for (int i = 0; i < REGISTERED; i++) {
            callbacks[i] = new Probes.Callback();
            registrations[i] = source.token().onStop(callbacks[i]);
        }
        for (int i = 0; i < TRIGGER; i += 2) {
            registrations[i].close();
        }
    }

    /** Closes the 16th registration: this call sweeps unless stop was already requested. */
    void triggerSweep() {
        registrations[TRIGGER].close();
    }

    /** Closes the head registration (callback 30): it is popped, unless a registration came on top. */
    void closeHead() {
        registrations[HEAD].close();
    }

    /**
     * How many of the registrations that were never closed (odd indices below {@link #TRIGGER}, and
     * the head unless {@code headClosed}) did not run exactly once. 0 is the only correct answer
     * once stop was requested.
     */
    int liveNotRunExactlyOnce(boolean headClosed) {
        int bad = 0;
        for (int i = 1; i < TRIGGER; i += 2) {
            if (callbacks[i].started != 1 || callbacks[i].finished != 1) {
                bad++;
            }
        }
        if (!headClosed && (callbacks[HEAD].started != 1 || callbacks[HEAD].finished != 1)) {
            bad++;
        }
        return bad;
    }

    int liveNotRunExactlyOnce() {
        return liveNotRunExactlyOnce(false);
    }

    /** Runs of the head's callback after {@link #closeHead()}: 0 is the only correct answer. */
    int headRuns() {
        return callbacks[HEAD].started;
    }

    /** How many of the registrations closed up front ran anyway. 0 is the only correct answer. */
    int closedButRan() {
        int bad = 0;
        for (int i = 0; i < TRIGGER; i += 2) {
            if (callbacks[i].started != 0) {
                bad++;
            }
        }
        return bad;
    }

    /** Runs of the trigger's callback: 0 (closed first) or 1 (stop reached it first). */
    int triggerRuns() {
        return callbacks[TRIGGER].started;
    }

    /**
     * 1 if a sweep unlinked nodes (the source's count of cancelled-but-linked nodes dropped below
     * the number closed up front), else 0. Read through the source's private {@code cancelled}
     * word; informational only: it shows the race under test actually included a sweep.
     */
    int swept() {
        int cancelled = (int) CANCELLED.getVolatile(source);
        return cancelled < CLOSED_UP_FRONT ? 1 : 0;
    }

    private static final VarHandle CANCELLED;

    static {
        try {
            CANCELLED = MethodHandles.privateLookupIn(InplaceStopSource.class, MethodHandles.lookup())
                    .findVarHandle(InplaceStopSource.class, "cancelled", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
