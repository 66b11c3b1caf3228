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
import org.openjdk.jcstress.infra.results.L_Result;

/** Result: the names in the dump after both actors, sorted, then ";" and the dump once all work ended. */
@JCStressTest
@Description("A scope's outstanding list: named work C is spawned (a push on the list) while named work A "
        + "finishes (which sweeps finished nodes off the list); L keeps running. The dump must then "
        + "list exactly C and L: the sweep never unlinks a node pushed meanwhile, and A is gone.")
@Outcome(id = "C,L;", expect = ACCEPTABLE, desc = "C and L listed; empty once they ended")
@Outcome(expect = FORBIDDEN, desc = "a pushed node was lost, a finished one listed, or the list not emptied")
@State
public class OutstandingSpawnVsFinish {

    final CountingScope scope = new CountingScope("stress");
    final Probes.Manual<Void> longRunning = new Probes.Manual<>(null);
    final Probes.Manual<Void> finishing = new Probes.Manual<>(null);
    final Probes.Manual<Void> added = new Probes.Manual<>(null);

    public OutstandingSpawnVsFinish() {
        Scopes.spawn(Scopes.named(longRunning, "L"), scope.getToken());
        Scopes.spawn(Scopes.named(finishing, "A"), scope.getToken());
    }

    @Actor
    public void spawn() {
        Scopes.spawn(Scopes.named(added, "C"), scope.getToken());
    }

    @Actor
    public void finish() {
        finishing.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(L_Result r) {
        String during = OutstandingNames.of(scope);
        longRunning.complete(Probes.VALUE);
        added.complete(Probes.VALUE);
        r.r1 = during + ";" + OutstandingNames.of(scope);
    }
}
