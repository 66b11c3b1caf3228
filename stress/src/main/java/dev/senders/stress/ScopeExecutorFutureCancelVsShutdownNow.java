package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import java.util.concurrent.Future;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = whether the user's cancel(false) succeeded; r2 = tasks shutdownNow returned as never
 * started; r3 = the scope's count at the end.
 */
@JCStressTest
@Description("A submitted task of a ScopeExecutor that has not run: actor 1 cancels its future while actor 2 "
        + "calls shutdownNow(). Exactly one of them claims the task; the association is released exactly once "
        + "and the task is never run.")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the user's cancel claimed it")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "shutdownNow claimed it (and cancelled the future)")
@Outcome(expect = FORBIDDEN, desc = "claimed twice, not at all, or a leaked association")
@State
public class ScopeExecutorFutureCancelVsShutdownNow {

    final CountingScope scope = new CountingScope("stress");
    final ScopeExecutor tasks = ScopeExecutor.of(r -> { }, scope);
    final Future<?> future = tasks.submit(() -> { });
    int cancelled;
    int never;

    @Actor
    public void cancel() {
        cancelled = future.cancel(false) ? 1 : 0;
    }

    @Actor
    public void shutdownNow() {
        never = tasks.shutdownNow().size();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = cancelled;
        r.r2 = never;
        r.r3 = (int) scope.count();
    }
}
