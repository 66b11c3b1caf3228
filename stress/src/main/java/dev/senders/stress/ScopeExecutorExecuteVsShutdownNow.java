package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = whether execute accepted the task (returned normally); r2 = whether shutdownNow
 * returned it; r3 = times it ran; r4 = the scope's count at the end.
 */
@JCStressTest
@Description("Actor 1 gives a task to execute() of a ScopeExecutor over a direct executor while actor 2 calls "
        + "shutdownNow(). A task execute accepted is run, or returned by shutdownNow as never started; a task it "
        + "rejected is neither; never an accepted task that is neither run nor returned.")
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "accepted and run before the stop")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "accepted, then cancelled by shutdownNow and returned")
@Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE, desc = "rejected: the scope was closed or stopped first")
@Outcome(id = "1, 0, 0, .*", expect = FORBIDDEN, desc = "accepted, then lost: neither run nor returned")
@Outcome(expect = FORBIDDEN, desc = "run and returned, rejected and run, a leaked association, or another combination")
@State
public class ScopeExecutorExecuteVsShutdownNow {

    final CountingScope scope = new CountingScope("stress");
    final ScopeExecutor tasks = ScopeExecutor.of(Runnable::run, scope);
    final AtomicInteger ran = new AtomicInteger();
    final Runnable task = ran::incrementAndGet;
    int accepted;
    int returned;

    @Actor
    public void execute() {
        try {
            tasks.execute(task);
            accepted = 1;
        } catch (RejectedExecutionException refused) {
            accepted = 0;
        }
        Thread.interrupted(); // a stop's interrupt of the inline run is cleared by the task; stay clean
    }

    @Actor
    public void shutdownNow() {
        List<Runnable> never = tasks.shutdownNow();
        returned = never.contains(task) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = accepted;
        r.r2 = returned;
        r.r3 = ran.get();
        r.r4 = (int) scope.count();
    }
}
