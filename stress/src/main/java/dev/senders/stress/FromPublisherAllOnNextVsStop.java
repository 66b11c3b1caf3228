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
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#STOPPED} 3); r3 = cancels
 * of the subscription; r4 = elements given to Reactor's discard hook; r5 = which elements (bit 1:
 * element 1, bit 2: element 2).
 */
@JCStressTest
@Description("The boundary core's onNext vs a stop request (cancel), in a buffering mode with a discard "
        + "hook: ReactorSenders.fromPublisherAll with element 1 already collected; the publisher's "
        + "onNext(2) (actor 1) vs a stop request on the receiver's token (actor 2). PublisherOperation's "
        + "BUSY bit hands the list over: a stop that finds it clear discards the list, an onNext that "
        + "finds DONE when it clears BUSY discards it itself. Every element must reach the discard hook "
        + "exactly once, and the receiver be stopped once, with one cancel.")
@Outcome(id = "1, 3, 1, 2, 6", expect = ACCEPTABLE, desc = "stopped once, cancelled once, both elements discarded once")
@Outcome(id = "1, 3, 1, [01], [0-9]", expect = FORBIDDEN, desc = "an element was never discarded (lost to the hook)")
@Outcome(id = "1, 3, 1, [3-9], [0-9]", expect = FORBIDDEN, desc = "an element was discarded twice")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherAllOnNextVsStop {

    final Probes.FromPublisherRig<List<Integer>> rig = new Probes.FromPublisherRig<>(true);

    {
        ReactorSenders.fromPublisherAll(rig.publisher).connect(rig.receiver).start();
        rig.publisher.subscriber.onNext(1);
    }

    @Actor
    public void onNext() {
        rig.publisher.subscriber.onNext(2);
    }

    @Actor
    public void requestStop() {
        rig.requestStop();
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = rig.receiver.completions;
        r.r2 = rig.receiver.kind;
        r.r3 = rig.publisher.cancels;
        r.r4 = rig.discards.count;
        r.r5 = rig.discards.mask;
    }
}
