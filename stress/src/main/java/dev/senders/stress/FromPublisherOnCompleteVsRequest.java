package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
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
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#VALUE} 1); r3 = the size
 * of the delivered list; r4 = cancels of the subscription; r5 = requests made; r6 = 1 if the
 * completion came from actor 2 while the request was being made (else the arbiter sent it).
 */
@JCStressTest
@Description("The boundary core's onComplete vs its own request: ReactorSenders.fromPublisherAll; "
        + "actor 1 starts the operation, whose onSubscribe calls request(unbounded); actor 2 is the "
        + "publisher's other thread, which sends onNext(1) and onComplete as soon as it sees the "
        + "request. DONE_UP may be set while IN_REQUEST is: onSubscribe must then leave the word "
        + "alone (nothing is cancelled after a terminal signal, §2.3), and the list [1] be delivered "
        + "exactly once.")
@Outcome(id = "1, 1, 1, 0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "completed while the request ran: [1] once, no cancel")
@Outcome(id = "1, 1, 1, 0, 1, 0", expect = ACCEPTABLE, desc = "completed after start: [1] once, no cancel")
@Outcome(id = "1, 1, 1, [1-9], [0-9], [01]", expect = FORBIDDEN, desc = "the subscription was cancelled after the publisher completed")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherOnCompleteVsRequest {

    final Probes.ManualPublisher<Integer> publisher = new Probes.ManualPublisher<>(true);
    final Probes.Recorder<List<Integer>> receiver = new Probes.Recorder<>();
    final OperationState op = ReactorSenders.fromPublisherAll(publisher).connect(receiver);
    int racing;

    @Actor
    public void start() {
        op.start();
    }

    @Actor
    public void complete() {
        if (publisher.requested) {
            racing = 1;
            publisher.subscriber.onNext(1);
            publisher.subscriber.onComplete();
        }
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        if (racing == 0) {
            publisher.subscriber.onNext(1);
            publisher.subscriber.onComplete();
        }
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = receiver.value instanceof List ? ((List<?>) receiver.value).size() : -1;
        r.r4 = publisher.cancels;
        r.r5 = publisher.requests;
        r.r6 = racing;
    }
}
