package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A producer waits on a full scope ({@code maxOutstanding(1)}); one actor requests stop on the
 * producer, the other releases the slot. Result: r1 = completions of the producer; r2 = its signal
 * ({@link Probes#VALUE} or {@link Probes#STOPPED}); r3 = times the work was started; r4 = the count
 * afterwards.
 */
@JCStressTest
@Description("Scopes.spawnWhenAvailable: a stop request on a waiting producer vs the release of the slot: "
        + "exactly one completion; stopped means the work never started and the slot stays free; a value "
        + "means it was spawned once.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "the release came first: spawned")
@Outcome(id = "1, 3, 0, 0", expect = ACCEPTABLE, desc = "the stop came first: stopped, nothing spawned")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "never completed")
@Outcome(expect = FORBIDDEN, desc = "any other combination (two completions, stopped yet spawned, a lost slot)")
@State
public class ScopeCapacityWaitStopVsRelease {

    final CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
    final AsyncScopeToken token = scope.getToken();
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Boolean> producer = new Probes.Recorder<>(stop.token(), null);
    volatile int starts;
    final Sender<Void> endless = r -> () -> starts++;

    {
        token.tryAssociate();
        Scopes.spawnWhenAvailable(endless, scope).connect(producer).start(); // waits
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
    }

    @Actor
    public void release() {
        token.dissociate();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = producer.completions;
        r.r2 = producer.kind;
        r.r3 = starts;
        r.r4 = (int) scope.count();
        for (long n = scope.count(); n > 0; n--) { // the endless work keeps its slot: release it, so no leak is reported
            token.dissociate();
        }
    }
}
