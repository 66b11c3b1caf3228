package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.Senders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = downstream completions; r2 = its kind ({@link Probes#VALUE} 1, {@link Probes#ERROR}
 * 2, {@link Probes#STOPPED} 3); r3 = how child A completed; r4 = how child B completed.
 */
@JCStressTest
@Description("whenAny of two children: actor 1 completes child A with a value; actor 2 completes "
        + "child B with an error and then requests stop downstream (forwarded to the children, which "
        + "answer stop by completing stopped; the winner's claim requests stop on its sibling too). The "
        + "first value or error claims the outcome; the result is delivered once, after both children "
        + "completed, and is the claimant's.")
@Outcome(id = "1, 1, 1, 2", expect = ACCEPTABLE, desc = "A's value came first and won")
@Outcome(id = "1, 1, 1, 3", expect = ACCEPTABLE, desc = "A's value won and its stop request stopped B before its error")
@Outcome(id = "1, 2, 1, 2", expect = ACCEPTABLE, desc = "B's error came first and won")
@Outcome(id = "1, 2, 3, 2", expect = ACCEPTABLE, desc = "B's error won and its stop request stopped A first")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "completed twice")
@Outcome(expect = FORBIDDEN, desc = "a result that no child produced, or delivered before a child completed")
@State
public class WhenAnyTwoCompletionsVsStop {

    final Probes.Manual<Integer> a = new Probes.Manual<>(1);
    final Probes.Manual<Integer> b = new Probes.Manual<>(null, new IllegalStateException("b"));
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Integer> downstream = new Probes.Recorder<>(stop.token(), null);

    {
        Senders.whenAny(a, b).connect(downstream).start();
    }

    @Actor
    public void aValue() {
        a.complete(Probes.VALUE);
    }

    @Actor
    public void bErrorThenStop() {
        b.complete(Probes.ERROR);
        stop.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = downstream.completions;
        r.r2 = downstream.kind;
        r.r3 = a.completed;
        r.r4 = b.completed;
    }
}
