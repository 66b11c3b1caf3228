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
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Result: r1 = onNext calls; r2 = values discarded (Reactor's onDiscard hook); r3 = cancels that
 * reached the source; r4 = onError calls.
 */
@JCStressTest
@Description("toMono(fromMono(m).then(v -> 5)), one operator (StagedMono): m completes empty (actor 1), "
        + "so the stage makes a value that needs demand, while the subscriber requests one and then "
        + "cancels (actor 2). The value is either emitted (the request met it before the cancel) or "
        + "given to the discard hook, exactly once; the cancel always reaches the source.")
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "the value emitted (completion, or request, came first)")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "the cancel came first: the value discarded")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "the value both emitted and discarded")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "the value neither emitted nor discarded (lost)")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StagedMonoCancelVsEmptyValue {

    final CapturingMono source = new CapturingMono();
    volatile Subscription subscription;
    int onNext;
    int onError;
    volatile int discarded;

    {
        ReactorSenders.toMono(ReactorSenders.fromMono(source).then(v -> 5)).subscribe(new CoreSubscriber<Object>() {
            private final Context context = Operators.enableOnDiscard(Context.empty(), v -> discarded++);

            @Override
            public Context currentContext() {
                return context;
            }

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
            }
        });
    }

    @Actor
    public void complete() {
        source.subscriber.onComplete();
    }

    @Actor
    public void requestThenCancel() {
        subscription.request(1);
        subscription.cancel();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = onNext;
        r.r2 = discarded;
        r.r3 = source.cancels();
        r.r4 = onError;
    }
}
