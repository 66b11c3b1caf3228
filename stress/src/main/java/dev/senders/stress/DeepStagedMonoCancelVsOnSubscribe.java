package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.stress.DeepStagedMonoRequestVsOnSubscribe.DeepSource;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.reactivestreams.Subscription;

/**
 * Result: r1 = the demand the source received in total; r2 = the cancels it received.
 */
@JCStressTest
@Description("As DeepStagedMonoRequestVsOnSubscribe, with the demand made at subscribe time: the source's "
        + "onSubscribe (actor 1) races the outermost subscriber's cancel() (actor 2), which reaches the "
        + "TrampolinedSubscriber before or after the source's subscription did. The source is cancelled exactly "
        + "once either way; it may have received the demand first.")
@Outcome(id = "[01], 1", expect = ACCEPTABLE, desc = "the cancel reached the source once (after the demand, or before it)")
@Outcome(id = "[01], 0", expect = FORBIDDEN, desc = "the cancel was lost")
@Outcome(id = "[01], [2-9]", expect = FORBIDDEN, desc = "the source was cancelled twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class DeepStagedMonoCancelVsOnSubscribe {

    final DeepSource source = new DeepSource();
    final Subscription subscription = source.subscribeNested(1);

    @Actor
    public void sourceSubscribes() {
        source.subscriber.onSubscribe(source);
    }

    @Actor
    public void cancel() {
        subscription.cancel();
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = source.requested.get();
        r.r2 = source.cancels.get();
    }
}
