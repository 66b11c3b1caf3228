package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result (after the arbiter requested stop): r1 = live registrations that did not run exactly
 * once, r2 = closed registrations that ran (the up-front ones), r3 = runs of the two raced closes'
 * callbacks (trigger and head), r4 = 1 if a sweep unlinked nodes.
 */
@JCStressTest
@Description("InplaceStopSource: the deregistration that sweeps (see PrimedSource) races the close "
        + "of the head registration, which pops it: the sweeper may be walking from the node being "
        + "popped. No live registration may be lost or doubled, no closed one may run.")
@Outcome(id = "0, 0, 0, [01]", expect = ACCEPTABLE, desc = "nothing lost, nothing closed ran")
@Outcome(id = "[1-9][0-9]*, .*", expect = FORBIDDEN, desc = "live registrations lost or doubled")
@Outcome(id = "0, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "closed registrations ran")
@Outcome(id = "0, 0, [1-9], .*", expect = FORBIDDEN, desc = "a raced close's callback ran after its close")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackPopVsSweep {

    final PrimedSource primed = new PrimedSource();

    @Actor
    public void sweepingClose() {
        primed.triggerSweep();
    }

    @Actor
    public void popHead() {
        primed.closeHead();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = primed.swept();
        primed.source.requestStop();
        r.r1 = primed.liveNotRunExactlyOnce(true);
        r.r2 = primed.closedButRan();
        r.r3 = primed.triggerRuns() + primed.headRuns();
    }
}
