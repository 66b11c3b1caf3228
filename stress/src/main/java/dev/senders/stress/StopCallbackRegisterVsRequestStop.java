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
 * Result: r1 = how many times the callback ran, r2 = where it ran (1 = registering thread, 2 =
 * stopping thread, 0 = nowhere, 3 = elsewhere), r3 = 1 if the callback saw
 * {@code stopRequested()}, r4 = 1 if {@code requestStop()} returned true.
 */
@JCStressTest
@Description("InplaceStopSource: onStop(cb) racing requestStop(). P2300 [stopcallback.cons]: the "
        + "callback runs exactly once, inline on the registering thread if stop came first, else on "
        + "the stopping thread; either way it sees stopRequested() == true.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "stop first: the callback ran inline in onStop")
@Outcome(id = "1, 2, 1, 1", expect = ACCEPTABLE, desc = "registration first: requestStop ran the callback")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "callback lost: registered but never ran")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(id = "1, [03], .*", expect = FORBIDDEN, desc = "callback ran on a thread that neither registered nor stopped")
@Outcome(id = "1, [12], 0, .*", expect = FORBIDDEN, desc = "callback ran while stopRequested() was still false")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "the only requestStop() call returned false")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackRegisterVsRequestStop {

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback callback = new Probes.Callback(source.token(), 0);
    volatile Thread registering;
    volatile Thread stopping;
    volatile boolean stopResult;

    @Actor
    public void register() {
        registering = Thread.currentThread();
        source.token().onStop(callback);
    }

    @Actor
    public void requestStop() {
        stopping = Thread.currentThread();
        stopResult = source.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = callback.started;
        r.r2 = callback.where(registering, stopping);
        r.r3 = callback.sawStopRequested ? 1 : 0;
        r.r4 = stopResult ? 1 : 0;
    }
}
