package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.RunLoop;
import dev.senders.StopToken;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

@JCStressTest(Mode.Termination)
@Description("RunLoop: run() on an empty queue parks; an item scheduled from another thread must "
        + "wake it (no lost wake-up between offer + read sleeper and publish sleeper + re-check "
        + "queue). The item's completion calls finish(), so run() returns iff the item ran.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the item ran on the run() thread and run() returned")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "lost wake-up: the item sits in the queue, run() parked")
@State
public class RunLoopScheduleWakesRun {

    final RunLoop loop = new RunLoop();
    final Probes.Recorder<Void> item = new Probes.Recorder<>(StopToken.never(), loop::finish);

    @Actor
    public void run() {
        loop.run();
    }

    @Signal
    public void schedule() {
        loop.schedule().connect(item).start();
    }
}
