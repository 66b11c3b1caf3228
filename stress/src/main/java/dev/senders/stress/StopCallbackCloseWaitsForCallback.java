package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

@JCStressTest(Mode.Termination)
@Description("InplaceStopSource: close() called while the callback runs on the stopping thread "
        + "parks until the callback has finished; the stopper must wake it (no lost wake-up between "
        + "the closer publishing itself as waiter and re-checking the state, and the stopper "
        + "writing DONE and reading the waiter).")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "close() returned once the callback finished")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "lost wake-up: close() still parked after the callback finished")
@State
public class StopCallbackCloseWaitsForCallback {

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback callback = new Probes.Callback(source.token(), 128);
    final StopCallback registration = source.token().onStop(callback);

    @Actor
    public void close() {
        // Wait for the stopper to start the callback, so that close() finds it running.
        while (callback.started == 0) {
            Thread.onSpinWait();
        }
        registration.close();
    }

    @Signal
    public void requestStop() {
        source.requestStop();
    }
}
