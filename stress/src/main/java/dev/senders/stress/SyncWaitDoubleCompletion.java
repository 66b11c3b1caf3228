package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Hooks;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = the value syncWait returned (1 or 2, -1 if it threw), r2 = whether completer 1's
 * setValue was reported as a protocol violation (1) or accepted (0), r3 = the same for completer 2.
 */
@JCStressTest
@Description("syncWait given a broken sender that completes twice, from two threads at once. "
        + "CONTRACT (ProtocolViolationException): a double completion is reported to "
        + "Hooks.onErrorDropped. Exactly one setValue is accepted and its value is the one "
        + "returned; the other is reported, even when the two race.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "completer 1 won; completer 2 reported")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "completer 2 won; completer 1 reported")
@Outcome(id = "[12], 0, 0", expect = FORBIDDEN, desc = "double completion not detected: both setValue calls accepted")
@Outcome(id = "[12], 1, 1", expect = FORBIDDEN, desc = "both completions reported as violations")
@Outcome(id = "(1, 1, 0|2, 0, 1)", expect = FORBIDDEN, desc = "syncWait returned the value of the completion it reported as a violation")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SyncWaitDoubleCompletion {

    /** Protocol violations reported on the current thread (each actor checks its own call). */
    static final ThreadLocal<int[]> VIOLATIONS = ThreadLocal.withInitial(() -> new int[1]);

    static {
        // A fork runs one test class at a time: this hook only sees this test's violations.
        Hooks.setOnErrorDropped(t -> {
            if (t instanceof ProtocolViolationException) {
                VIOLATIONS.get()[0]++;
            }
        });
    }

    volatile Receiver<? super Integer> receiver;
    final Sender<Integer> handOff = r -> () -> receiver = r;
    int returned;
    int reported1;
    int reported2;

    private Receiver<? super Integer> awaitReceiver() {
        Receiver<? super Integer> r;
        while ((r = receiver) == null) {
            Thread.onSpinWait();
        }
        return r;
    }

    private static int complete(Receiver<? super Integer> r, int value) {
        int[] v = VIOLATIONS.get();
        int before = v[0];
        r.setValue(value);
        return v[0] - before;
    }

    @Actor
    public void syncWait() {
        try {
            returned = Senders.syncWait(handOff);
        } catch (RuntimeException e) {
            returned = -1;
        }
    }

    @Actor
    public void complete1() {
        reported1 = complete(awaitReceiver(), 1);
    }

    @Actor
    public void complete2() {
        reported2 = complete(awaitReceiver(), 2);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = returned;
        r.r2 = reported1;
        r.r3 = reported2;
    }
}
