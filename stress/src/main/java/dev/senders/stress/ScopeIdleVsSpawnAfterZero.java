package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * An earlier wait (armed in the set-up) and work A are outstanding. One actor ends A (the zero:
 * the earlier wait's epoch ends and its signal is fired). The other sees the count, and if it saw
 * the zero, associates new work B (never released) and only then starts a new wait. That new wait
 * began after the zero, with B outstanding: it must not complete, even when it starts while the
 * dissociating thread is between its CAS to zero and the firing of the old signal.
 *
 * <p>Result: r1 = 1 if the second actor saw the zero (and associated B before its wait); r2 =
 * completions of the new wait; r3 = completions of the earlier wait.
 */
@JCStressTest
@Description("SimpleCountingScope.whenIdle(): a wait started after the zero, with new work outstanding, "
        + "is never completed by the firing of the previous epoch's signal; the earlier wait completes once.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "saw the zero, associated B, waited: waits for B")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "no new work: the new wait was never completed (lost wake-up)")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "did not see the zero (no B): completed by it, or inline")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "a wait that began after the zero, with B outstanding, completed")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "the earlier wait was never completed")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeIdleVsSpawnAfterZero {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    final Probes.Recorder<Void> earlier = new Probes.Recorder<>();
    final Probes.Recorder<Void> later = new Probes.Recorder<>();
    int sawZero;

    {
        token.tryAssociate(); // A
        scope.whenIdle().connect(earlier).start(); // armed: A's end fires this epoch's signal
    }

    @Actor
    public void endA() {
        token.dissociate();
    }

    @Actor
    public void associateBThenWait() {
        if (scope.count() == 0) {
            sawZero = 1;
            token.tryAssociate(); // B, never released
        }
        scope.whenIdle().connect(later).start();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = sawZero;
        r.r2 = later.completions;
        r.r3 = earlier.completions;
    }
}
