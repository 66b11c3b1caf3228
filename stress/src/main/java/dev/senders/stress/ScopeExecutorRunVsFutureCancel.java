package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = times the task ran; r2 = whether cancel(false) succeeded; r3 = the scope's count at
 * the end.
 */
@JCStressTest
@Description("A submitted task of a ScopeExecutor is queued on an executor that holds it; actor 1 runs it while "
        + "actor 2 cancels its future. A cancel that wins releases the association at once and the later run does "
        + "nothing; a run that wins releases it when the task returns; never both, never neither.")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the run claimed it first: cancel fails")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "cancelled before it ran")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "FutureTask ran it, and cancel(false) came before FutureTask recorded the result")
@Outcome(expect = FORBIDDEN, desc = "a leaked association or another combination")
@State
public class ScopeExecutorRunVsFutureCancel {

    final CountingScope scope = new CountingScope("stress");
    final AtomicInteger ran = new AtomicInteger();
    volatile Runnable queued;
    final ScopeExecutor tasks = ScopeExecutor.of(r -> queued = r, scope);
    final Future<?> future = tasks.submit(ran::incrementAndGet);
    int cancelled;

    @Actor
    public void run() {
        queued.run();
        Thread.interrupted();
    }

    @Actor
    public void cancel() {
        cancelled = future.cancel(false) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = ran.get();
        r.r2 = cancelled;
        r.r3 = (int) scope.count();
    }
}
