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
 * Result: r1 = what the closing thread saw of the callback right after {@code close()} returned
 * (0 never started, 1 still running, 2 finished), r2 = how many times it ran in the end, r3 = 1 if
 * {@code requestStop()} returned true.
 */
@JCStressTest
@Description("InplaceStopSource: StopCallback.close() racing requestStop() on another thread. "
        + "P2300 [stopcallback.cons] (~stop_callback): after close() returns the callback is not "
        + "running and will never run; if it was running on the stopper, close() waited for it.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "close first: deregistered, never ran")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "stop first: close() returned after the callback finished")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "callback still running after close() returned")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "callback started after close() returned")
@Outcome(id = "[0-3], [2-9], .*", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "the only requestStop() call returned false")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackCloseVsRequestStop {

    final InplaceStopSource source = new InplaceStopSource();
    // The spin keeps the callback running long enough for close() to meet it mid-run.
    final Probes.Callback callback = new Probes.Callback(source.token(), 64);
    final StopCallback registration = source.token().onStop(callback);
    int afterClose;
    volatile boolean stopResult;

    @Actor
    public void close() {
        registration.close();
        afterClose = callback.snapshot();
    }

    @Actor
    public void requestStop() {
        stopResult = source.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = afterClose;
        r.r2 = callback.started;
        r.r3 = stopResult ? 1 : 0;
    }
}
