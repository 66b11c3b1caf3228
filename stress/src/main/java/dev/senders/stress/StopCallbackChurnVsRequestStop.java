package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.StopCallback;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Result: r1 = runs of the registration X made by the churning actor, r2 = live up-front
 * registrations that did not run exactly once, r3 = closed-up-front registrations that ran,
 * r4 = runs of the sweeping close's callback, r5 = runs of the churned registration Y (registered
 * then closed), r6 = 1 if a sweep unlinked nodes.
 */
@JCStressTest
@Description("InplaceStopSource (3 actors: runs on machines with 3+ CPUs): three-way churn (see PrimedSource). One actor's close() sweeps, "
        + "one registers X then registers and closes Y (a second possible sweep), one requests "
        + "stop. Every live registration, X included, runs exactly once; closed-up-front ones never; "
        + "the two raced closes' callbacks at most once.")
@Outcome(id = "1, 0, 0, [01], [01], [01]", expect = ACCEPTABLE, desc = "nothing lost, nothing doubled")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "registration X lost (unlinked by a sweep or push lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "registration X ran more than once")
@Outcome(id = "1, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "live up-front registrations lost or doubled")
@Outcome(id = "1, 0, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "closed registrations ran")
@Outcome(id = "1, 0, 0, ([2-9]|[01], [2-9]), .*", expect = FORBIDDEN, desc = "a raced close's callback ran more than once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackChurnVsRequestStop {

    final PrimedSource primed = new PrimedSource();
    final Probes.Callback x = new Probes.Callback();
    final Probes.Callback y = new Probes.Callback();

    @Actor
    public void sweepingClose() {
        primed.triggerSweep();
    }

    @Actor
    public void churn() {
        primed.source.token().onStop(x);
        StopCallback yReg = primed.source.token().onStop(y);
        yReg.close();
    }

    @Actor
    public void requestStop() {
        primed.source.requestStop();
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        r.r1 = x.started;
        r.r2 = primed.liveNotRunExactlyOnce();
        r.r3 = primed.closedButRan();
        r.r4 = primed.triggerRuns();
        r.r5 = y.started;
        r.r6 = primed.swept();
    }
}
