package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorSenders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * Result: r1 = onNext calls; r2 = onComplete calls; r3 = onError calls.
 */
@JCStressTest
@Description("toMono(fromMono(m).then(v -> 5)), one operator (StagedMono): m completes empty (actor 1), "
        + "so the stage makes a value that needs demand of its own, while the subscriber's first "
        + "request(1) arrives (actor 2). Whichever of the two sets its bit of the word second emits: "
        + "the value exactly once, then onComplete. Lost (no onNext) or twice is a bug.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the value emitted once, then completion")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the value was lost")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "onNext called twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StagedMonoRequestVsEmptyValue {

    final CapturingMono source = new CapturingMono();
    volatile Subscription subscription;
    int onNext;
    int onComplete;
    int onError;

    {
        ReactorSenders.toMono(ReactorSenders.fromMono(source).then(v -> 5)).subscribe(new CoreSubscriber<Object>() {
            @Override
            public void onSubscribe(Subscription s) {
                subscription = s; // no demand yet
            }

            @Override
            public void onNext(Object v) {
                onNext++;
            }

            @Override
            public void onError(Throwable t) {
                onError++;
            }

            @Override
            public void onComplete() {
                onComplete++;
            }
        });
    }

    @Actor
    public void complete() {
        source.subscriber.onComplete();
    }

    @Actor
    public void request() {
        subscription.request(1);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = onNext;
        r.r2 = onComplete;
        r.r3 = onError;
    }
}
