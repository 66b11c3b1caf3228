package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Senders;
import dev.senders.StopToken;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result: r1 = downstream completions; r2 = their kind ({@link Probes#ERROR} 2 expected);
 * r3 = 1 if the error delivered is the failing child's; r4 = 1 if the sibling's stop token fired;
 * r5 = how the sibling ended ({@link Probes#VALUE} 1: its own value; {@link Probes#STOPPED} 3: the
 * stop request reached it first).
 */
@JCStressTest
@Description("whenAll (P2300 [exec.when_all]) of two children: child A fails (actor 1) while child B "
        + "completes with a value (actor 2); B also completes stopped, on the stopping thread, if A's "
        + "stop request reaches it first. Whatever the order: downstream completes exactly once, "
        + "with A's error (values never claim; the first error wins), and the sibling's stop token "
        + "was fired by the error (FanOut.claim requests stop even if B already finished).")
@Outcome(id = "1, 2, 1, 1, [13]", expect = ACCEPTABLE, desc = "A's error delivered once; B asked to stop (it ended with its value or stopped)")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "downstream never completed (an arrival lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "downstream completed twice")
@Outcome(id = "1, [013], .*", expect = FORBIDDEN, desc = "error lost: downstream got a value or stopped")
@Outcome(id = "1, 2, 0, .*", expect = FORBIDDEN, desc = "downstream got an error that is not the child's")
@Outcome(id = "1, 2, 1, 0, .*", expect = FORBIDDEN, desc = "the sibling was not asked to stop")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class WhenAllErrorVsSiblingCompletion {

    static final RuntimeException BOOM = new IllegalStateException("child A failed");

    final Probes.Manual<Integer> a = new Probes.Manual<>(null, BOOM);
    final Probes.Manual<Integer> b = new Probes.Manual<>(2);
    final Probes.Recorder<List<Integer>> downstream = new Probes.Recorder<>(StopToken.never(), null);

    {
        Senders.whenAll(a, b).connect(downstream).start();
    }

    @Actor
    public void failA() {
        a.complete(Probes.ERROR);
    }

    @Actor
    public void completeB() {
        b.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = downstream.completions;
        r.r2 = downstream.kind;
        r.r3 = downstream.error == BOOM ? 1 : 0;
        r.r4 = b.stopRequested();
        r.r5 = b.completed;
    }
}
