package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = whether the user's cancel(false) succeeded; r2 = whether the future is cancelled at
 * the end; r3 = futures in the completion service's queue; r4 = the scope's count at the end.
 */
@JCStressTest
@Description("A task submitted through an ExecutorCompletionService over a ScopeExecutor (the executor wraps the "
        + "view's future, as invokeAny does) is queued on an executor that holds it; actor 1 cancels its future while "
        + "actor 2 requests stop on the scope. Whoever wins, the future ends cancelled, is queued for take() exactly "
        + "once, and the association is released exactly once.")
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "the user's cancel claimed it")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "the stop claimed it and cancelled the future")
@Outcome(expect = FORBIDDEN, desc = "a future left pending, queued twice or not at all, or a leaked association")
@State
public class ScopeExecutorCompletionFutureCancelVsStop {

    final CountingScope scope = new CountingScope("stress");
    final ScopeExecutor tasks = ScopeExecutor.of(r -> { }, scope);
    final ExecutorCompletionService<String> completions = new ExecutorCompletionService<>(tasks);
    final Future<String> future = completions.submit(() -> "done");
    int cancelled;

    @Actor
    public void cancel() {
        cancelled = future.cancel(false) ? 1 : 0;
    }

    @Actor
    public void stop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = cancelled;
        r.r2 = future.isCancelled() ? 1 : 0;
        int queued = 0;
        while (completions.poll() != null) {
            queued++;
        }
        r.r3 = queued;
        r.r4 = (int) scope.count();
    }
}
