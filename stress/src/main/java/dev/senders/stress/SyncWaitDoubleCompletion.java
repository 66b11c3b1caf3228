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
 * Result: r1 = the value syncWait returned (1 or 2, -1 if it threw), r2 = 1 if completion 1 (made
 * inline in start(), on the syncWait thread) was reported as a protocol violation, 0 if accepted;
 * r3 = the same for completion 2 (made on the other actor's thread).
 */
@JCStressTest
@Description("syncWait given a broken sender that completes twice, from two threads at once: once "
        + "inline in start() and once from another thread. CONTRACT (ProtocolViolationException): "
        + "a double completion is reported to Hooks.onErrorDropped. Exactly one setValue is "
        + "accepted and its value is the one returned; the other is reported, even when they race.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "inline completion won; the other was reported")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "the other thread's completion won; the inline one was reported")
@Outcome(id = "[12], 0, 0", expect = FORBIDDEN, desc = "double completion not detected: both setValue calls accepted")
@Outcome(id = "[12], 1, 1", expect = FORBIDDEN, desc = "both completions reported as violations")
@Outcome(id = "(1, 1, 0|2, 0, 1)", expect = FORBIDDEN, desc = "syncWait returned the value of the completion it reported as a violation")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SyncWaitDoubleCompletion {

    /** Protocol violations reported on the current thread (each actor checks its own call). */
    static final ThreadLocal<int[]> VIOLATIONS = ThreadLocal.withInitial(() -> new int[1]);

    static {
        // A forked VM runs one test class: this hook only sees this test's violations.
        Hooks.setOnErrorDropped(t -> {
            if (t instanceof ProtocolViolationException) {
                VIOLATIONS.get()[0]++;
            }
        });
    }

    volatile Receiver<? super Integer> receiver;
    int returned;
    int reported1;
    int reported2;

    /** Publishes its receiver, then completes it inline with 1: the other actor completes it with 2. */
    final Sender<Integer> twice = r -> () -> {
        receiver = r;
        reported1 = complete(r, 1);
    };

    private static int complete(Receiver<? super Integer> r, int value) {
        int[] v = VIOLATIONS.get();
        int before = v[0];
        r.setValue(value);
        return v[0] - before;
    }

    @Actor
    public void syncWait() {
        try {
            returned = Senders.syncWait(twice);
        } catch (RuntimeException e) {
            returned = -1;
        }
    }

    @Actor
    public void completeFromOtherThread() {
        Receiver<? super Integer> r;
        // Bounded: the other actor always starts the operation.
        while ((r = receiver) == null) {
            Thread.onSpinWait();
        }
        reported2 = complete(r, 2);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = returned;
        r.r2 = reported1;
        r.r3 = reported2;
    }
}
