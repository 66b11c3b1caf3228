package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

/** Result: r1 = the dump taken by the actor (sorted names), r2 = the dump after both actors. */
@JCStressTest
@Description("A scope's outstanding list: a dump is taken while named work A finishes (and sweeps); "
        + "L keeps running. The racing dump may or may not still see A, but always sees L; afterwards "
        + "only L is listed.")
@Outcome(id = "A,L, L", expect = ACCEPTABLE, desc = "the dump came before A finished")
@Outcome(id = "L, L", expect = ACCEPTABLE, desc = "the dump came after A finished")
@Outcome(expect = FORBIDDEN, desc = "L missing from a dump, or A listed after it finished")
@State
public class OutstandingDumpVsFinish {

    final CountingScope scope = new CountingScope("stress");
    final Probes.Manual<Void> longRunning = new Probes.Manual<>(null);
    final Probes.Manual<Void> finishing = new Probes.Manual<>(null);
    String dump;

    public OutstandingDumpVsFinish() {
        Scopes.spawn(Scopes.named(longRunning, "L"), scope.getToken());
        Scopes.spawn(Scopes.named(finishing, "A"), scope.getToken());
    }

    @Actor
    public void finish() {
        finishing.complete(Probes.VALUE);
    }

    @Actor
    public void dump() {
        dump = OutstandingNames.of(scope);
    }

    @Arbiter
    public void arbiter(LL_Result r) {
        r.r1 = dump;
        r.r2 = OutstandingNames.of(scope);
        longRunning.complete(Probes.VALUE);
    }
}
