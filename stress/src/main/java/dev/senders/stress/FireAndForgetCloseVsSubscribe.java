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

/**
 * Result: r1 = subscriptions the tracker found; r2 = times the caller's completion callback ran;
 * r3 = the scope's count at the end; r4 = the tracker's running subscriptions at the end.
 */
@JCStressTest
@Description("The hook is removed (the tracker closed) while a subscription starts through it: actor 1 closes "
        + "the tracker, actor 2 subscribes a Mono that completes at once. Either the subscription was found "
        + "(tracked, then released when it completed) or it ran untouched; it always completes, and nothing "
        + "stays associated or listed.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "found before the close, tracked and released")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "closed first: ran untouched")
@Outcome(expect = FORBIDDEN, desc = "a lost completion, a leaked association or listing")
@State
public class FireAndForgetCloseVsSubscribe {

    final CountingScope scope = new CountingScope("stress");
    final FireAndForgetTracker tracker = FireAndForgetHooks.tracker(scope);
    final AtomicInteger completed = new AtomicInteger();

    @Actor
    public void close() {
        tracker.close();
    }

    @Actor
    public void subscribe() {
        CoreSubscriber<Object> s = FireAndForgetHooks.lift(tracker,
                FireAndForgetHooks.monoLambda(v -> { }, e -> { }, completed::incrementAndGet));
        s.onSubscribe(FireAndForgetHooks.counting(new AtomicInteger()));
        s.onComplete();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = (int) tracker.foundCount();
        r.r2 = completed.get();
        r.r3 = (int) scope.count();
        r.r4 = tracker.activeCount();
    }
}
