package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.RunLoop;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = how the scheduled item completed (1 value, 2 error, 3 stopped, 0 not at all),
 * r2 = how many times, r3 = on which thread (1 the thread in run(), 2 the scheduling thread).
 */
@JCStressTest
@Description("RunLoop: finish() was already called and run() is draining and returning (the "
        + "FINISHING -> DONE transition) while another thread schedules. The item either runs on "
        + "the run() thread or completes stopped on the scheduling thread, exactly once; never both "
        + "(the pusher's queue.remove and the driver's final poll must not both win), never neither.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "queued before run() returned: ran on the run() thread")
@Outcome(id = "3, 1, 2", expect = ACCEPTABLE, desc = "queued after run() returned: stopped on the scheduling thread")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "item lost")
@Outcome(id = "[0-3], [2-9], .*", expect = FORBIDDEN, desc = "item completed more than once")
@Outcome(id = "1, 1, [02-9]", expect = FORBIDDEN, desc = "item ran on a thread other than the run() thread")
@Outcome(id = "3, 1, [013-9]", expect = FORBIDDEN, desc = "item stopped on a thread other than the scheduling thread")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class RunLoopScheduleVsRunReturning {

    final RunLoop loop = new RunLoop();
    final Probes.Recorder<Void> item = new Probes.Recorder<>();
    volatile Thread driver;
    volatile Thread scheduling;

    {
        loop.finish();
    }

    @Actor
    public void run() {
        driver = Thread.currentThread();
        loop.run();
    }

    @Actor
    public void schedule() {
        scheduling = Thread.currentThread();
        loop.schedule().connect(item).start();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = item.kind;
        r.r2 = item.completions;
        Thread t = item.completedOn;
        r.r3 = t == null ? 0 : t == driver ? 1 : t == scheduling ? 2 : 3;
    }
}
