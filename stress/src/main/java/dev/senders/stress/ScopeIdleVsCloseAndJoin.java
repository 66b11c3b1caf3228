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
 * Result: r1 = completions of the idle wait; r2 = completions of the join; r3 = the scope's state
 * ordinal afterwards (6 = JOINED).
 */
@JCStressTest
@Description("SimpleCountingScope: close() + join() on one thread vs whenIdle() + the last dissociate() "
        + "on the other: both waits complete exactly once and the scope ends JOINED (the zero that joins "
        + "the scope is also its idle moment).")
@Outcome(id = "1, 1, 6", expect = ACCEPTABLE, desc = "both completed; joined")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the idle wait never completed")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "the join never completed")
@Outcome(expect = FORBIDDEN, desc = "any other combination (a double completion, a scope not JOINED)")
@State
public class ScopeIdleVsCloseAndJoin {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    final Probes.Recorder<Void> idle = new Probes.Recorder<>();
    final Probes.Recorder<Void> join = new Probes.Recorder<>();

    {
        token.tryAssociate();
    }

    @Actor
    public void closeAndJoin() {
        scope.close();
        scope.join().connect(join).start();
    }

    @Actor
    public void waitForIdleThenRelease() {
        scope.whenIdle().connect(idle).start();
        token.dissociate();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = idle.completions;
        r.r2 = join.completions;
        r.r3 = scope.state().ordinal();
    }
}
