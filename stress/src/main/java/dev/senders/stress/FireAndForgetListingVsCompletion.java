package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetTracker;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import reactor.core.CoreSubscriber;

/**
 * Result: r1 = the tracker's running subscriptions counted by actor 2 (a walk of its list); r2 =
 * the count at the end.
 */
@JCStressTest
@Description("Two tracked fire-and-forget subscriptions: the older one keeps running, the newer one (the head "
        + "of the tracker's list) completes in actor 1 and is popped off the list, its link cleared, while actor "
        + "2 lists the running ones (activeCount walks the list). The walk must still find the older one, and "
        + "never count one twice.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "listed before the completion")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "listed after the completion")
@Outcome(expect = FORBIDDEN, desc = "the running one missed (the walk ended at the popped node), counted twice, or left listed")
@State
public class FireAndForgetListingVsCompletion {

    final CountingScope scope = new CountingScope("stress");
    final FireAndForgetTracker tracker = FireAndForgetHooks.tracker(scope);
    final AtomicInteger cancelled = new AtomicInteger();
    final CoreSubscriber<Object> older = FireAndForgetHooks.lift(tracker,
            FireAndForgetHooks.monoLambda(v -> { }, e -> { }, () -> { }));
    final CoreSubscriber<Object> newer = FireAndForgetHooks.lift(tracker,
            FireAndForgetHooks.monoLambda(v -> { }, e -> { }, () -> { }));

    {
        older.onSubscribe(FireAndForgetHooks.counting(cancelled));
        newer.onSubscribe(FireAndForgetHooks.counting(cancelled));
    }

    @Actor
    public void complete() {
        newer.onComplete();
    }

    @Actor
    public void list(II_Result r) {
        r.r1 = tracker.activeCount();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = tracker.activeCount();
        tracker.close();
    }
}
