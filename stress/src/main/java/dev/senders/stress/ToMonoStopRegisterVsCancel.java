package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.reactor.ReactorSenders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * Result: r1, r2 = runs of the first (the token's field slot) and the second (the overflow
 * InplaceStopSource) callback; r3, r4 = 1 if that callback saw stop requested while it ran (or
 * did not run).
 */
@JCStressTest
@Description("ReactorSenders.toMono: the subscription is the sender's stop token (SubscriptionStop). "
        + "Registering two callbacks (actor 1: the first takes the field slot, the second creates "
        + "the overflow InplaceStopSource) vs the subscriber's cancel() (actor 2). Every callback "
        + "registered on a token whose stop is requested runs exactly once (inline if registered "
        + "after the stop), and only after stop was requested; a stopper that read the overflow "
        + "before it was published must not make the second callback miss its run.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "both callbacks ran once, after stop was requested")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the slot's callback never ran")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "the overflow callback never ran (lost registration)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the slot's callback ran twice")
@Outcome(id = "1, [2-9], .*", expect = FORBIDDEN, desc = "the overflow callback ran twice")
@Outcome(id = "1, 1, 0, .*", expect = FORBIDDEN, desc = "the slot's callback ran before stop was requested")
@Outcome(id = "1, 1, 1, 0", expect = FORBIDDEN, desc = "the overflow callback ran before stop was requested")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ToMonoStopRegisterVsCancel {

    volatile StopToken token;
    volatile Subscription subscription;
    Probes.Callback first;
    Probes.Callback second;

    /** Publishes its receiver's token when started; never completes. */
    final Sender<Integer> sender = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            return () -> token = r.env().stopToken();
        }
    };

    {
        ReactorSenders.toMono(sender).subscribe(new BaseSubscriber<Integer>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                subscription = s;
                s.request(1);
            }
        });
        first = new Probes.Callback(token, 0);
        second = new Probes.Callback(token, 0);
    }

    @Actor
    public void register() {
        StopToken t = token;
        t.onStop(first);
        t.onStop(second);
    }

    @Actor
    public void cancel() {
        subscription.cancel();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = first.started;
        r.r2 = second.started;
        r.r3 = first.sawStopRequested ? 1 : 0;
        r.r4 = second.sawStopRequested ? 1 : 0;
    }
}
