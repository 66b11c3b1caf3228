package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorSenders;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = cancels of the subscription; r4 = elements discarded; r5 = the
 * size of the delivered list (-1 if none); r6 = 1 if the receiver had completed when
 * {@code requestStop()} returned.
 */
@JCStressTest
@Description("The boundary core's stop request vs the publisher's terminal signal: "
        + "ReactorSenders.fromPublisherAll with element 1 collected; the publisher's onComplete "
        + "(actor 1) vs a stop request (actor 2). Whoever sets DONE_UP or DONE_US first completes "
        + "the receiver: the list [1], or stopped with the subscription cancelled and the element "
        + "discarded. Never both, never neither, and a stop that wins is answered before requestStop "
        + "returns (the operation has finished starting).")
@Outcome(id = "1, 1, 0, 0, 1, [01]", expect = ACCEPTABLE, desc = "onComplete won: the list [1] delivered, nothing cancelled or discarded")
@Outcome(id = "1, 3, 1, 1, -1, 1", expect = ACCEPTABLE, desc = "the stop won: cancelled, the element discarded, stopped inline")
@Outcome(id = "1, 1, [0-9], [1-9], -?[0-9], [01]", expect = FORBIDDEN, desc = "the element was both delivered and discarded")
@Outcome(id = "1, 3, [0-9], 0, -?[0-9], [01]", expect = FORBIDDEN, desc = "stopped, but the collected element was never discarded")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherStopVsOnComplete {

    final Probes.FromPublisherRig<List<Integer>> rig = new Probes.FromPublisherRig<>(true);

    {
        ReactorSenders.fromPublisherAll(rig.publisher).connect(rig.receiver).start();
        rig.publisher.subscriber.onNext(1);
    }

    @Actor
    public void onComplete() {
        rig.publisher.subscriber.onComplete();
    }

    @Actor
    public void requestStop() {
        rig.requestStop();
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        Object v = rig.receiver.value;
        r.r1 = rig.receiver.completions;
        r.r2 = rig.receiver.kind;
        r.r3 = rig.publisher.cancels;
        r.r4 = rig.discards.count;
        r.r5 = v instanceof List ? ((List<?>) v).size() : -1;
        r.r6 = rig.doneAtStopReturn;
    }
}
