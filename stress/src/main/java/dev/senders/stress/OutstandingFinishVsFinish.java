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

/** Result: the dump after both actors (sorted names), then ";" and the dump once L ended too. */
@JCStressTest
@Description("A scope's outstanding list: named works A and B finish at once, each trying to sweep "
        + "(one wins the sweep flag, the other must not be forgotten); L keeps running. Afterwards "
        + "only L is listed, and nothing once L ended.")
@Outcome(id = "L;", expect = ACCEPTABLE, desc = "both finished nodes left the list")
@Outcome(expect = FORBIDDEN, desc = "a finished node listed, L lost, or the list not emptied")
@State
public class OutstandingFinishVsFinish {

    final CountingScope scope = new CountingScope("stress");
    final Probes.Manual<Void> longRunning = new Probes.Manual<>(null);
    final Probes.Manual<Void> a = new Probes.Manual<>(null);
    final Probes.Manual<Void> b = new Probes.Manual<>(null);

    public OutstandingFinishVsFinish() {
        Scopes.spawn(Scopes.named(longRunning, "L"), scope.getToken());
        Scopes.spawn(Scopes.named(a, "A"), scope.getToken());
        Scopes.spawn(Scopes.named(b, "B"), scope.getToken());
    }

    @Actor
    public void finishA() {
        a.complete(Probes.VALUE);
    }

    @Actor
    public void finishB() {
        b.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(L_Result r) {
        String during = OutstandingNames.of(scope);
        longRunning.complete(Probes.VALUE);
        r.r1 = during + ";" + OutstandingNames.of(scope);
    }
}
