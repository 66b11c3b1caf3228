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
 * Result: r1 = times the caller's value consumer ran; r2 = times the source was cancelled; r3 =
 * the scope's count at the end; r4 = the tracker's running subscriptions at the end.
 */
@JCStressTest
@Description("A tracked fire-and-forget Mono.subscribe(consumer) (the hook's subscriber between the source and "
        + "Reactor's lambda subscriber): actor 1 is the source emitting its value and completing, actor 2 the "
        + "scope's requestStop(). Either order ends the work exactly once: the association is released and the "
        + "tracker stops listing it; a value that comes after the stop is not delivered.")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "the source completed before the stop")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "the value was delivered, the stop cancelled before the completion")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "the stop came first: the value is not delivered")
@Outcome(expect = FORBIDDEN, desc = "a leaked association or listing, a double delivery, or another combination")
@State
public class FireAndForgetCompleteVsScopeStop {

    final CountingScope scope = new CountingScope("stress");
    final FireAndForgetTracker tracker = FireAndForgetHooks.tracker(scope);
    final AtomicInteger consumed = new AtomicInteger();
    final AtomicInteger cancelled = new AtomicInteger();
    final CoreSubscriber<Object> work = FireAndForgetHooks.lift(tracker,
            FireAndForgetHooks.monoLambda(v -> consumed.incrementAndGet(), e -> { }, () -> { }));

    {
        work.onSubscribe(FireAndForgetHooks.counting(cancelled));
    }

    @Actor
    public void source() {
        work.onNext("v");
        work.onComplete();
    }

    @Actor
    public void stop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = consumed.get();
        r.r2 = cancelled.get();
        r.r3 = (int) scope.count();
        r.r4 = tracker.activeCount();
        tracker.close();
    }
}
