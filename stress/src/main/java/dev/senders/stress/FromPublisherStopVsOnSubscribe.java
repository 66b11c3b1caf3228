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
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#STOPPED} 3); r3 =
 * requests made on the subscription; r4 = cancels of it; r5 = 1 if a cancel came while a request
 * was running (§2.7 broken); r6 = 1 if the receiver had completed when {@code requestStop()}
 * returned.
 */
@JCStressTest
@Description("The boundary core's cancel vs onSubscribe: ReactorSenders.fromPublisher of a publisher "
        + "that calls onSubscribe later, from its own thread (actor 1), vs a stop request (actor 2). "
        + "PublisherOperation's SUBSCRIBED and IN_REQUEST bits decide who cancels: the stop if the "
        + "subscription arrived and its request returned, onSubscribe otherwise (at once if it finds "
        + "the completion claimed, or after request(1) returns). The subscription must be cancelled "
        + "exactly once, never during a request, and the receiver stopped once, inline.")
@Outcome(id = "1, 3, [01], 1, 0, 1", expect = ACCEPTABLE, desc = "stopped once, inline; the subscription cancelled once (requested or not)")
@Outcome(id = "1, 3, [0-9], 0, [01], [01]", expect = FORBIDDEN, desc = "the subscription was never cancelled")
@Outcome(id = "1, 3, [0-9], [2-9], [01], [01]", expect = FORBIDDEN, desc = "the subscription was cancelled twice")
@Outcome(id = "[0-9], [0-9], [0-9], [0-9], 1, [01]", expect = FORBIDDEN, desc = "cancel called while request was running (§2.7)")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherStopVsOnSubscribe {

    final Probes.FromPublisherRig<Integer> rig = new Probes.FromPublisherRig<>(false);

    {
        ReactorSenders.fromPublisher(rig.publisher).connect(rig.receiver).start(); // subscribed, no onSubscribe yet
    }

    @Actor
    public void onSubscribe() {
        rig.publisher.subscriber.onSubscribe(rig.publisher.subscription);
    }

    @Actor
    public void requestStop() {
        rig.requestStop();
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        Probes.ManualPublisher<Integer> p = rig.publisher;
        r.r1 = rig.receiver.completions;
        r.r2 = rig.receiver.kind;
        r.r3 = p.requests;
        r.r4 = p.cancels;
        r.r5 = p.cancelDuringRequest;
        r.r6 = rig.doneAtStopReturn;
    }
}
