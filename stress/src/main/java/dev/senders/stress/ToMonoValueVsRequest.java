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
 * Result: r1 = onNext calls; r2 = onComplete calls; r3 = values discarded; r4 = onNext calls
 * that saw a value other than 42.
 */
@JCStressTest
@Description("ReactorSenders.toMono: the sender's setValue (actor 1) vs the subscriber's first "
        + "request(1) (actor 2), no demand before. SenderSubscription (the core under toMono's shell): a value without demand claims "
        + "COMPLETED, stores the value, then publishes HAS_VALUE; whichever of setValue and request "
        + "completes the REQUESTED | HAS_VALUE pair emits, in the CAS that sets TERMINAL. The value "
        + "must be emitted exactly once, intact, and never discarded.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "emitted once (by setValue or by request), then completed")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the value was never emitted (lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "onNext called twice")
@Outcome(id = ".*, [1-9], [0-9]", expect = FORBIDDEN, desc = "the value was discarded")
@Outcome(id = ".*, [1-9]", expect = FORBIDDEN, desc = "onNext saw a wrong (e.g. null) value")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ToMonoValueVsRequest {

    final Probes.Manual<Integer> sender = new Probes.Manual<>(42, null, false);
    volatile int discarded;
    volatile int onNext;
    volatile int onComplete;
    volatile int wrong;
    volatile Subscription subscription;

    final CoreSubscriber<Integer> subscriber = new CoreSubscriber<>() {
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
        public void onNext(Integer v) {
            if (v == null || v != 42) {
                wrong++;
            }
            onNext++;
        }

        @Override
        public void onError(Throwable t) {
            onComplete += 100; // never right here: shows up as "any other combination"
        }

        @Override
        public void onComplete() {
            onComplete++;
        }
    };

    {
        ReactorSenders.toMono(sender).subscribe(subscriber);
    }

    @Actor
    public void value() {
        sender.complete(Probes.VALUE);
    }

    @Actor
    public void request() {
        subscription.request(1);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = onNext;
        r.r2 = onComplete;
        r.r3 = discarded;
        r.r4 = wrong;
    }
}
