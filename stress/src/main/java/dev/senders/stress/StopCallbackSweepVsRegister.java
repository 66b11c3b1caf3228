package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result (after the arbiter requested stop): r1 = runs of the registration made during the sweep,
 * r2 = live up-front registrations that did not run exactly once, r3 = closed registrations that
 * ran, r4 = runs of the sweeping close's own callback, r5 = 1 if a sweep unlinked nodes.
 */
@JCStressTest
@Description("InplaceStopSource: the deregistration that sweeps cancelled nodes races a new "
        + "registration (see PrimedSource). The sweep may only unlink cancelled nodes: the new "
        + "registration and every live one still run exactly once on requestStop(), closed ones never.")
@Outcome(id = "1, 0, 0, 0, 1", expect = ACCEPTABLE, desc = "swept; nothing lost, nothing closed ran")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "registration made during the sweep was lost")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "registration made during the sweep ran more than once")
@Outcome(id = "1, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "the sweep unlinked (or doubled) live registrations")
@Outcome(id = "1, 0, [1-9][0-9]*, .*", expect = FORBIDDEN, desc = "closed registrations ran")
@Outcome(id = "1, 0, 0, [1-9], .*", expect = FORBIDDEN, desc = "the sweeping close's own callback ran after close")
@Outcome(id = "1, 0, 0, 0, 0", expect = FORBIDDEN, desc = "no sweep happened: the fixture no longer covers the race (SWEEP_MIN changed?)")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackSweepVsRegister {

    final PrimedSource primed = new PrimedSource();
    final Probes.Callback added = new Probes.Callback();

    @Actor
    public void sweepingClose() {
        primed.triggerSweep();
    }

    @Actor
    public void register() {
        primed.source.token().onStop(added);
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r5 = primed.swept();
        primed.source.requestStop();
        r.r1 = added.started;
        r.r2 = primed.liveNotRunExactlyOnce();
        r.r3 = primed.closedButRan();
        r.r4 = primed.triggerRuns();
    }
}
