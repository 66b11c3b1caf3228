package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result (after the arbiter requested stop): r1 = runs of the registration made during the race,
 * r2 = runs of the closed head registration, r3 = runs of the live registration under the head.
 */
@JCStressTest
@Description("InplaceStopSource: closing the head registration pops it (a CAS of head to its "
        + "successor) while another thread pushes a new registration on top (a CAS of head too). "
        + "Whichever wins, the new registration and the live one below run exactly once on "
        + "requestStop(), the closed one never.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "nothing lost, the closed one did not run")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the new registration was lost")
@Outcome(id = ".*, [1-9], .*", expect = FORBIDDEN, desc = "the closed registration ran")
@Outcome(id = ".*, .*, [02-9]", expect = FORBIDDEN, desc = "the live registration below was lost or doubled")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackPopVsRegister {

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback below = new Probes.Callback();
    final Probes.Callback head = new Probes.Callback();
    final Probes.Callback added = new Probes.Callback();
    final StopCallback belowReg = source.token().onStop(below);
    final StopCallback headReg = source.token().onStop(head);

    @Actor
    public void closeHead() {
        headReg.close();
    }

    @Actor
    public void register() {
        source.token().onStop(added);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        source.requestStop();
        r.r1 = added.started;
        r.r2 = head.started;
        r.r3 = below.started;
    }
}
