package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = completions of the waiting {@code whenIdle()}; r2 = its signal ({@link Probes#VALUE}
 * or {@link Probes#STOPPED}); r3 = completions of a second wait the arbiter starts after a new
 * association and its release (the scope still works as before: the stopped wait left nothing
 * behind that could complete the next one early or twice).
 */
@JCStressTest
@Description("CountingScope.whenIdle(): a stop request on the waiting receiver vs the last dissociate(): "
        + "exactly one completion, stopped or value; the scope's later waits are unaffected.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the zero came first: value")
@Outcome(id = "1, 3, 1", expect = ACCEPTABLE, desc = "the stop came first: stopped")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeIdleStopVsLastDissociate {

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Void> idle = new Probes.Recorder<>(stop.token(), null);

    {
        token.tryAssociate();
        scope.whenIdle().connect(idle).start();
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
    }

    @Actor
    public void dissociate() {
        token.dissociate();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = idle.completions;
        r.r2 = idle.kind;
        token.tryAssociate();
        Probes.Recorder<Void> next = new Probes.Recorder<>();
        scope.whenIdle().connect(next).start();
        int before = next.completions;
        token.dissociate();
        r.r3 = before == 0 ? next.completions : -1;
    }
}
