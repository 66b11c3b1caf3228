package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

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
 * A full scope ({@code maxOutstanding(1)}, one operation associated). One actor starts
 * {@code spawnWhenAvailable} of work that never ends; the other releases the association.
 * Result: r1 = completions of the producer; r2 = its value (1 = spawned); r3 = times the work was
 * started; r4 = the count afterwards.
 */
@JCStressTest
@Description("Scopes.spawnWhenAvailable on a full scope vs the release of the last slot: the producer "
        + "spawns exactly once into the freed slot (no lost wake-up), and the limit holds.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "spawned into the freed slot")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the producer never completed (lost wake-up)")
@Outcome(expect = FORBIDDEN, desc = "any other combination (spawned twice, over the limit, refused)")
@State
public class ScopeCapacityWaitVsRelease {

    final CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
    final AsyncScopeToken token = scope.getToken();
    final Probes.Recorder<Boolean> producer = new Probes.Recorder<>();
    volatile int starts;
    final Sender<Void> endless = r -> () -> starts++;

    {
        token.tryAssociate();
    }

    @Actor
    public void produce() {
        Scopes.spawnWhenAvailable(endless, scope).connect(producer).start();
    }

    @Actor
    public void release() {
        token.dissociate();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = producer.completions;
        r.r2 = Boolean.TRUE.equals(producer.value) ? 1 : 0;
        r.r3 = starts;
        r.r4 = (int) scope.count();
        for (long n = scope.count(); n > 0; n--) { // the endless work keeps its slot: release it, so no leak is reported
            token.dissociate();
        }
    }
}
