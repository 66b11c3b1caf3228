package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.task.Task;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = the task receiver's completions; r2 = its kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = times the body ran.
 */
@JCStressTest
@Description("A Task's body handed to its executor: the executor running it (actor 1) races a stop "
        + "request on the task (actor 2). The phase word decides (STARTED -> RUNNING by the body, or "
        + "STARTED -> DONE by the stop, which completes the task stopped at once, so a body its "
        + "executor dropped still ends). Exactly one completion; stopped never after the body returned "
        + "its value.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the body ran and returned its value")
@Outcome(id = "1, 3, 0", expect = ACCEPTABLE, desc = "the stop came first: the body never ran")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "no completion")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "two completions")
@Outcome(expect = FORBIDDEN, desc = "the outcome contradicts the body's runs")
@State
public class TaskBodyStartVsStop {

    final AtomicInteger runs = new AtomicInteger();
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Integer> receiver = new Probes.Recorder<>(stop.token(), null);
    volatile Runnable body;

    {
        Task.of(r -> body = r, ctx -> runs.incrementAndGet()).connect(receiver).start();
    }

    @Actor
    public void executorRunsTheBody() {
        body.run();
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = runs.get();
    }
}
