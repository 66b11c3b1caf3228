package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1, r2 = completions of join A and join B (seen by the arbiter, after the last
 * dissociate); r3, r4 = the scope's count each join's receiver saw when it completed (-1 never).
 */
@JCStressTest
@Description("SimpleCountingScope: two joins started concurrently (P3149R6: any number of joins). "
        + "Actor 1 starts join A; actor 2 starts join B and then releases the last association, so "
        + "A's push on the waiter stack races B's push, B's move to CLOSED/OPEN_AND_JOINING, the move "
        + "to JOINED and the drain. Both joins complete exactly once, at count zero.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "both joins completed once, at count zero")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "join A never completed (left on the waiter stack)")
@Outcome(id = "[0-9], 0, .*", expect = FORBIDDEN, desc = "join B never completed (left on the waiter stack)")
@Outcome(id = "([2-9], .*|[0-9], [2-9], .*)", expect = FORBIDDEN, desc = "a join completed twice")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "a join completed before the count reached zero")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeJoinVsJoin {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    volatile long countAtA = -1;
    volatile long countAtB = -1;
    final Probes.Recorder<Void> a = new Probes.Recorder<>(StopToken.never(), () -> countAtA = scope.count());
    final Probes.Recorder<Void> b = new Probes.Recorder<>(StopToken.never(), () -> countAtB = scope.count());

    {
        token.tryAssociate();
    }

    @Actor
    public void joinA() {
        scope.join().connect(a).start();
    }

    @Actor
    public void joinBThenDissociate() {
        scope.join().connect(b).start();
        token.dissociate();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = a.completions;
        r.r2 = b.completions;
        r.r3 = (int) countAtA;
        r.r4 = (int) countAtB;
    }
}
