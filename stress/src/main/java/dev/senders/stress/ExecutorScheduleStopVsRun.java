package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.Schedulers;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = completions; r2 = the kind ({@link Probes#VALUE} 1, {@link Probes#STOPPED} 3); r3 =
 * where it completed ({@link Probes#ON_FIRST} the task's thread, {@link Probes#ON_SECOND} the
 * stopping thread).
 */
@JCStressTest
@Description("Schedulers.fromExecutor's schedule operation: the queued task running (actor 1) races a "
        + "stop request (actor 2). The operation is the task and its own stop callback; one CAS "
        + "(SUBMITTED -> DONE) decides. A task dropped by its executor would never run: the stop must "
        + "complete it alone. Exactly one completion: the value on the task's thread, or stopped "
        + "(on the stopping thread, or on the task's thread if it saw the stop first).")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the task ran first")
@Outcome(id = "1, 3, 2", expect = ACCEPTABLE, desc = "the stop claimed the pending operation: stopped at once")
@Outcome(id = "1, 3, 1", expect = ACCEPTABLE, desc = "the task claimed it after the stop was requested: stopped")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "no completion")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "two completions")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ExecutorScheduleStopVsRun {

    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Void> receiver = new Probes.Recorder<>(stop.token(), null);
    volatile Runnable task;
    volatile Thread runner;
    volatile Thread stopper;

    {
        Schedulers.fromExecutor(t -> task = t).schedule().connect(receiver).start();
    }

    @Actor
    public void runTheTask() {
        runner = Thread.currentThread();
        task.run();
    }

    @Actor
    public void requestStop() {
        stopper = Thread.currentThread();
        stop.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        Thread t = receiver.completedOn;
        r.r3 = t == runner ? Probes.ON_FIRST : t == stopper ? Probes.ON_SECOND : Probes.ON_OTHER;
    }
}
