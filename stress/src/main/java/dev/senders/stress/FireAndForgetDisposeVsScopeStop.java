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
import org.openjdk.jcstress.infra.results.IIII_Result;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;

/**
 * Result: r1 = times the source was cancelled; r2 = whether the caller's Disposable reports
 * disposed; r3 = the scope's count at the end; r4 = the tracker's running subscriptions at the end.
 */
@JCStressTest
@Description("A tracked fire-and-forget subscription that never ends on its own: actor 1 disposes the caller's "
        + "Disposable (Reactor's lambda subscriber, which cancels the hook's subscriber), actor 2 requests stop "
        + "on the scope (which cancels the source and disposes the lambda subscriber). The source is cancelled "
        + "exactly once, the caller's Disposable reports disposed, the association is released once.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "cancelled once, released once, whichever came first")
@Outcome(expect = FORBIDDEN, desc = "a double cancel, a leaked association or listing, or a Disposable not disposed")
@State
public class FireAndForgetDisposeVsScopeStop {

    final CountingScope scope = new CountingScope("stress");
    final FireAndForgetTracker tracker = FireAndForgetHooks.tracker(scope);
    final AtomicInteger cancelled = new AtomicInteger();
    final CoreSubscriber<Object> lambda = FireAndForgetHooks.monoLambda(v -> { }, e -> { }, () -> { });
    final Disposable caller = FireAndForgetHooks.disposable(lambda);

    {
        FireAndForgetHooks.lift(tracker, lambda).onSubscribe(FireAndForgetHooks.counting(cancelled));
    }

    @Actor
    public void dispose() {
        caller.dispose();
    }

    @Actor
    public void stop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = cancelled.get();
        r.r2 = caller.isDisposed() ? 1 : 0;
        r.r3 = (int) scope.count();
        r.r4 = tracker.activeCount();
        tracker.close();
    }
}
