package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1, r2 = what each closing thread saw of the callback right after its {@code close()}
 * returned (0 never started, 1 running, 2 finished), r3 = runs of the callback.
 *
 * <p>A hang is the failure this test is after: if one of the two waiting closers is never woken,
 * its actor never returns and jcstress reports the test as an error (timeout).
 */
@JCStressTest
@Description("InplaceStopSource: StopCallback.close() is idempotent and thread-safe, so two threads "
        + "may close the same registration while its callback runs on the stopper. Both must wait "
        + "for the callback to finish and then both must return. The callback holds the race open "
        + "until both closers have called close(), so both usually wait.")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "a close came first: deregistered, never ran")
@Outcome(id = "2, 2, 1", expect = ACCEPTABLE, desc = "both closes returned after the callback finished")
@Outcome(id = "(1, .*|[0-3], 1, .*)", expect = FORBIDDEN, desc = "callback still running after a close() returned")
@Outcome(id = "(0, 2|2, 0), .*", expect = FORBIDDEN, desc = "the closers disagree: one saw the callback run, one saw it never start")
@Outcome(id = "[0-3], [0-3], [2-9]", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackCloseVsCloseWhileRunning {

    final InplaceStopSource source = new InplaceStopSource();
    volatile int closersArrived;
    volatile int started;
    volatile int finished;
    final StopCallback registration = source.token().onStop(this::callback);
    int seen1;
    int seen2;

    private void callback() {
        STARTED.getAndAdd(this, 1);
        // Both closers always arrive (they are actors), so this wait is bounded.
        while (closersArrived < 2) {
            Thread.onSpinWait();
        }
        // Let both of them get into close() and find the callback running.
        for (int i = 0; i < 256; i++) {
            Thread.onSpinWait();
        }
        FINISHED.getAndAdd(this, 1);
    }

    private int snapshot() {
        int f = finished;
        int s = started;
        if (s == 0) {
            return 0;
        }
        return f == 0 ? 1 : s > 1 || f > 1 ? 3 : 2;
    }

    @Actor
    public void requestStop() {
        source.requestStop();
    }

    @Actor
    public void close1() {
        ARRIVED.getAndAdd(this, 1);
        registration.close();
        seen1 = snapshot();
    }

    @Actor
    public void close2() {
        ARRIVED.getAndAdd(this, 1);
        registration.close();
        seen2 = snapshot();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = seen1;
        r.r2 = seen2;
        r.r3 = started;
    }

    private static final VarHandle ARRIVED;
    private static final VarHandle STARTED;
    private static final VarHandle FINISHED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ARRIVED = l.findVarHandle(StopCallbackCloseVsCloseWhileRunning.class, "closersArrived", int.class);
            STARTED = l.findVarHandle(StopCallbackCloseVsCloseWhileRunning.class, "started", int.class);
            FINISHED = l.findVarHandle(StopCallbackCloseVsCloseWhileRunning.class, "finished", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
