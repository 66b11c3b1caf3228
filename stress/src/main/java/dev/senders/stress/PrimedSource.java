package dev.senders.stress;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An {@link InplaceStopSource} primed so that the next deregistration sweeps.
 *
 * <p>{@code InplaceStopSource} unlinks cancelled registrations lazily: the deregistration that
 * makes at least {@code SWEEP_MIN} (16) registrations cancelled, and at least half of the linked
 * ones, sweeps the list. This fixture registers {@value #REGISTERED} callbacks and closes the
 * {@value #CLOSED_UP_FRONT} at even indices 0..28 (below the threshold: no sweep yet), so they are
 * interleaved with live ones all along the list. {@link #triggerSweep()} closes callback 29 (the
 * most recent one), which is the 16th cancellation: that close runs the sweep, racing whatever the
 * test's other actors do.
 */
final class PrimedSource {

    static final int REGISTERED = 30;
    static final int CLOSED_UP_FRONT = 15;
    static final int TRIGGER = REGISTERED - 1;

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback[] callbacks = new Probes.Callback[REGISTERED];
    final StopCallback[] registrations = new StopCallback[REGISTERED];

    PrimedSource() {
        for (int i = 0; i < REGISTERED; i++) {
            callbacks[i] = new Probes.Callback();
            registrations[i] = source.token().onStop(callbacks[i]);
        }
        for (int i = 0; i < REGISTERED - 1; i += 2) {
            registrations[i].close();
        }
    }

    /** Closes the 16th registration: this call sweeps unless stop was already requested. */
    void triggerSweep() {
        registrations[TRIGGER].close();
    }

    /**
     * How many of the registrations that were never closed (odd indices below {@link #TRIGGER})
     * did not run exactly once. 0 is the only correct answer once stop was requested.
     */
    int liveNotRunExactlyOnce() {
        int bad = 0;
        for (int i = 1; i < TRIGGER; i += 2) {
            if (callbacks[i].started != 1 || callbacks[i].finished != 1) {
                bad++;
            }
        }
        return bad;
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
     * 1 if a sweep unlinked nodes (the source's linked count dropped below the number registered
     * up front), else 0. Read through the source's private {@code counts} word; informational
     * only: it shows the race under test actually included a sweep.
     */
    int swept() {
        long counts = (long) COUNTS.getVolatile(source);
        return (counts >>> 32) < REGISTERED ? 1 : 0;
    }

    private static final VarHandle COUNTS;

    static {
        try {
            COUNTS = MethodHandles.privateLookupIn(InplaceStopSource.class, MethodHandles.lookup())
                    .findVarHandle(InplaceStopSource.class, "counts", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
