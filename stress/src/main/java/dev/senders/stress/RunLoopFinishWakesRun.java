package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.RunLoop;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

@JCStressTest(Mode.Termination)
@Description("RunLoop: run() on an empty queue parks; finish() from another thread must wake it "
        + "(no lost wake-up between the driver publishing itself as sleeper and re-checking the "
        + "phase, and finish() setting the phase and reading the sleeper).")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "run() returned after finish()")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "lost wake-up: run() still parked after finish()")
@State
public class RunLoopFinishWakesRun {

    final RunLoop loop = new RunLoop();

    @Actor
    public void run() {
        loop.run();
    }

    @Signal
    public void finish() {
        loop.finish();
    }
}
