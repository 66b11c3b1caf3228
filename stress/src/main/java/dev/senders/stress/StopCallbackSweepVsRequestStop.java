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
 * Result: r1 = runs of registration X, r2 = live up-front registrations that did not run exactly
 * once, r3 = closed-up-front registrations that ran, r4 = runs of the sweeping close's callback,
 * r5 = runs of the churned registration Y (registered then closed), r6 = 1 if a sweep unlinked nodes.
 */
@JCStressTest
@Description("InplaceStopSource: the deregistration that sweeps (see PrimedSource) races a thread "
        + "that registers X, registers and closes Y (a second possible sweep) and then requests "
        + "stop, so the stopper's walk meets the sweeper's unlinking (the 2-CPU form of "
        + "StopCallbackChurnVsRequestStop). Every live registration, X included, runs exactly once; "
        + "closed-up-front ones never; the raced close's callback at most once.")
@Outcome(id = "1, 0, 0, [01], 0, [01]", expect = ACCEPTABLE, desc = "nothing lost, nothing doubled")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "registration X lost (unlinked by a sweep or push lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "registration X ran more than once")
@Outcome(id = "1, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "live up-front registrations lost or doubled")
@Outcome(id = "1, 0, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "closed registrations ran")
@Outcome(id = "1, 0, 0, [2-9], .*", expect = FORBIDDEN, desc = "the sweeping close's callback ran more than once")
@Outcome(id = "1, 0, 0, [01], [1-9], .*", expect = FORBIDDEN, desc = "Y ran although it was closed before stop was requested")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackSweepVsRequestStop {

    final PrimedSource primed = new PrimedSource();
    final Probes.Callback x = new Probes.Callback();
    final Probes.Callback y = new Probes.Callback();

    @Actor
    public void sweepingClose() {
        primed.triggerSweep();
    }

    @Actor
    public void churnThenStop() {
        primed.source.token().onStop(x);
        StopCallback yReg = primed.source.token().onStop(y);
        yReg.close();
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
