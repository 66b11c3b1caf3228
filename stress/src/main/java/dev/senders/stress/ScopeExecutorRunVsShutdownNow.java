package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = times the task ran; r2 = tasks shutdownNow returned as never started; r3 = the
 * runner's interrupt status after the executor's run() returned (must be clear: the interrupt was
 * meant for the task); r4 = the scope's count at the end.
 */
@JCStressTest
@Description("A task of a ScopeExecutor is queued on an executor that holds it; actor 1 runs it (the executor "
        + "thread) while actor 2 calls shutdownNow(). The run-once claim decides: either the task runs (and may be "
        + "interrupted, an interrupt cleared when it returns) or it is cancelled and returned as never started; "
        + "the scope's association is released exactly once either way.")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "the run claimed it first")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "shutdownNow cancelled it before it ran")
@Outcome(id = "1, 0, 1, 0", expect = FORBIDDEN, desc = "the stop's interrupt outlived the task")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "ran and also returned as never started")
@Outcome(expect = FORBIDDEN, desc = "not run and not cancelled, a leaked association, or another combination")
@State
public class ScopeExecutorRunVsShutdownNow {

    final CountingScope scope = new CountingScope("stress");
    final AtomicInteger ran = new AtomicInteger();
    volatile Runnable queued;
    final ScopeExecutor tasks = ScopeExecutor.of(r -> queued = r, scope);

    {
        tasks.execute(ran::incrementAndGet);
    }

    int never;
    int leakedInterrupt;

    @Actor
    public void run() {
        queued.run();
        leakedInterrupt = Thread.interrupted() ? 1 : 0;
    }

    @Actor
    public void shutdownNow() {
        never = tasks.shutdownNow().size();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = ran.get();
        r.r2 = never;
        r.r3 = leakedInterrupt;
        r.r4 = (int) scope.count();
    }
}
