package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.RunLoop;
import dev.senders.StopToken;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = how the item scheduled from the other thread completed (1 value, 2 error,
 * 3 stopped, 0 not at all), r2 = how many times, r3 = on which thread (1 the run() thread, 2 the
 * scheduling thread).
 */
@JCStressTest
@Description("RunLoop: an item scheduled from another thread races finish(), here called by work "
        + "already queued on the loop (so it runs on the run() thread, mid-drain: the 2-CPU form "
        + "of RunLoopScheduleVsFinishVsRun). P2300 [exec.run_loop]: the item is never lost: it runs "
        + "on the run() thread or, queued after run() returned, completes with setStopped() on the "
        + "scheduling thread. Exactly one completion either way.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "ran on the run() thread")
@Outcome(id = "3, 1, 2", expect = ACCEPTABLE, desc = "queued after run() returned: stopped on the scheduling thread")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "item lost: run() returned and the item never completed")
@Outcome(id = "[0-3], [2-9], .*", expect = FORBIDDEN, desc = "item completed more than once")
@Outcome(id = "1, 1, [02-9]", expect = FORBIDDEN, desc = "item ran on a thread other than the run() thread")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "item completed with an error")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class RunLoopScheduleVsFinish {

    final RunLoop loop = new RunLoop();
    final Probes.Recorder<Void> item = new Probes.Recorder<>();
    volatile Thread driver;
    volatile Thread scheduling;

    {
        // Queued first: when run() executes it, it calls finish() on the run() thread.
        loop.schedule().connect(new Probes.Recorder<Void>(StopToken.never(), loop::finish)).start();
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
