package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1, r2 = runs of callbacks A and B, r3, r4 = where each ran (1 = its own registering
 * thread, inline; 2 = the stopping thread).
 */
@JCStressTest
@Description("InplaceStopSource (3 actors: runs on machines with 3+ CPUs): two registrations contend on the list head (CAS push) while a "
        + "third thread requests stop. Each callback runs exactly once, inline on its registering "
        + "thread or on the stopper; a push that loses its CAS to the stopper's swap must retry and "
        + "run inline, never disappear.")
@Outcome(id = "1, 1, [12], [12]", expect = ACCEPTABLE, desc = "both ran exactly once, each inline or on the stopper")
@Outcome(id = "(0, .*|[0-9], 0, .*)", expect = FORBIDDEN, desc = "a callback was lost")
@Outcome(id = "([2-9], .*|[0-9], [2-9], .*)", expect = FORBIDDEN, desc = "a callback ran more than once")
@Outcome(id = "1, 1, .*[03].*", expect = FORBIDDEN, desc = "a callback ran on a foreign thread")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackRegisterVsRegisterVsRequestStop {

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback a = new Probes.Callback();
    final Probes.Callback b = new Probes.Callback();
    volatile Thread registeringA;
    volatile Thread registeringB;
    volatile Thread stopping;

    @Actor
    public void registerA() {
        registeringA = Thread.currentThread();
        source.token().onStop(a);
    }

    @Actor
    public void registerB() {
        registeringB = Thread.currentThread();
        source.token().onStop(b);
    }

    @Actor
    public void requestStop() {
        stopping = Thread.currentThread();
        source.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = a.started;
        r.r2 = b.started;
        r.r3 = a.where(registeringA, stopping);
        r.r4 = b.where(registeringB, stopping);
    }
}
