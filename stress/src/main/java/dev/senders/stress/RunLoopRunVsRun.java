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
 * Result: r1, r2 = what each run() did (1 returned normally, 2 threw IllegalStateException,
 * 3 threw something else), r3 = runs of the item queued before both.
 */
@JCStressTest
@Description("RunLoop: two threads call run() at once (finish() already called, one item queued). "
        + "RunLoop is driven by one thread at a time: overlapping calls get IllegalStateException, "
        + "calls that do not overlap both return; the queued item runs exactly once, on whichever "
        + "thread drove the loop.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the calls did not overlap: both returned")
@Outcome(id = "(1, 2|2, 1), 1", expect = ACCEPTABLE, desc = "overlap: the second caller was rejected")
@Outcome(id = "2, 2, .*", expect = FORBIDDEN, desc = "both callers rejected: the loop was never driven")
@Outcome(id = ".*, (0|[2-9])", expect = FORBIDDEN, desc = "the queued item was lost or ran more than once")
@Outcome(id = "(3, .*|[0-9], 3, .*)", expect = FORBIDDEN, desc = "run() threw an unexpected exception")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class RunLoopRunVsRun {

    final RunLoop loop = new RunLoop();
    final Probes.Recorder<Void> item = new Probes.Recorder<>();
    int r1;
    int r2;

    {
        loop.schedule().connect(item).start();
        loop.finish();
    }

    private int run() {
        try {
            loop.run();
            return 1;
        } catch (IllegalStateException e) {
            return 2;
        } catch (RuntimeException e) {
            return 3;
        }
    }

    @Actor
    public void run1() {
        r1 = run();
    }

    @Actor
    public void run2() {
        r2 = run();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = r1;
        r.r2 = r2;
        r.r3 = item.completions;
    }
}
