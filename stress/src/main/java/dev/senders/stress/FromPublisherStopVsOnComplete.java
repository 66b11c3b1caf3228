package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.reactor.ReactorSenders;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

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
@Outcome(id = "1, 1, .*, [1-9], .*", expect = FORBIDDEN, desc = "the element was both delivered and discarded")
@Outcome(id = "1, 3, .*, 0, .*", expect = FORBIDDEN, desc = "stopped, but the collected element was never discarded")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherStopVsOnComplete {

    final Probes.ManualPublisher<Integer> publisher = new Probes.ManualPublisher<>(true);
    final Probes.Discards discards = new Probes.Discards();
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<List<Integer>> receiver = new Probes.Recorder<>(
            Env.of(Query.STOP_TOKEN, stop.token())
                    .with(ReactorSenders.CONTEXT, Operators.enableOnDiscard(Context.empty(), discards::accept)),
            null);
    int doneAtStopReturn;

    {
        ReactorSenders.fromPublisherAll(publisher).connect(receiver).start();
        publisher.subscriber.onNext(1);
    }

    @Actor
    public void onComplete() {
        publisher.subscriber.onComplete();
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
        doneAtStopReturn = receiver.completions > 0 ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = publisher.cancels;
        r.r4 = discards.count;
        Object v = receiver.value;
        r.r5 = v instanceof List ? ((List<?>) v).size() : -1;
        r.r6 = doneAtStopReturn;
    }
}
