package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.reactor.ReactorSenders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#VALUE} 1); r3 = the value
 * (7); r4 = cancels of the subscription; r5 = 1 if a cancel came while a request was running
 * (§2.7 broken); r6 = 1 if the element came from actor 2 while the request was being made (else
 * the arbiter sent it afterwards).
 */
@JCStressTest
@Description("The boundary core's onNext vs its own request: ReactorSenders.fromPublisher (first "
        + "element); actor 1 starts the operation, whose onSubscribe calls request(1); actor 2 is the "
        + "publisher's other thread, which emits the element as soon as it sees the request (as an "
        + "asynchronous publisher may). The element claims the completion and wants a cancel while "
        + "IN_REQUEST may still be set: the cancel must then be left to onSubscribe, after request "
        + "returned (§2.7), and happen exactly once.")
@Outcome(id = "1, 1, 7, 1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "the element raced the request: value once, one cancel, not during the request")
@Outcome(id = "1, 1, 7, 1, 0, 0", expect = ACCEPTABLE, desc = "the element came after start: value once, one cancel")
@Outcome(id = "[0-9], [0-9], -?[0-9], [0-9], 1, [01]", expect = FORBIDDEN, desc = "cancel called while request was running (§2.7)")
@Outcome(id = "1, 1, 7, [02-9], 0, [01]", expect = FORBIDDEN, desc = "the subscription was not cancelled exactly once")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherOnNextVsRequest {

    final Probes.ManualPublisher<Integer> publisher = new Probes.ManualPublisher<>(true);
    final Probes.Recorder<Integer> receiver = new Probes.Recorder<>();
    final OperationState op = ReactorSenders.fromPublisher(publisher).connect(receiver);
    int racing;

    @Actor
    public void start() {
        op.start();
    }

    @Actor
    public void emit() {
        if (publisher.requested) {
            racing = 1;
            publisher.subscriber.onNext(7);
        }
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        if (racing == 0) {
            publisher.subscriber.onNext(7);
        }
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = receiver.value instanceof Integer ? (Integer) receiver.value : -1;
        r.r4 = publisher.cancels;
        r.r5 = publisher.cancelDuringRequest;
        r.r6 = racing;
    }
}
