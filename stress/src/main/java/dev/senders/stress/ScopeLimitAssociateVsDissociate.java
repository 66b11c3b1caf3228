package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.RefusalReason;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A full scope ({@code maxOutstanding(1)}, one operation associated): its completion races a new
 * association. Result: r1 = whether the association succeeded; r2 = the count afterwards; r3 =
 * refusals counted as full; r4 = completions of a join the arbiter starts after closing the scope
 * and releasing what the actor associated (a refused association leaves nothing to release).
 */
@JCStressTest
@Description("SimpleCountingScope with maxOutstanding(1), full: the last operation's dissociate() vs a new "
        + "tryAssociate(): the new one is either refused (counted, no trace) or takes the freed slot; the "
        + "count never exceeds the limit and the scope still joins.")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "the slot was freed first: associated")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "the scope was full: refused, no trace")
@Outcome(expect = FORBIDDEN, desc = "any other combination (over the limit, a lost or extra count, a hung join)")
@State
public class ScopeLimitAssociateVsDissociate {

    final SimpleCountingScope scope = SimpleCountingScope.builder().maxOutstanding(1).build();
    final AsyncScopeToken token = scope.getToken();
    int associated;

    {
        token.tryAssociate();
    }

    @Actor
    public void release() {
        token.dissociate();
    }

    @Actor
    public void associate() {
        associated = token.tryAssociate() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = associated;
        r.r2 = (int) scope.count();
        r.r3 = (int) scope.refusedCount(RefusalReason.FULL);
        scope.close();
        if (associated == 1) {
            token.dissociate();
        }
        Probes.Recorder<Void> join = new Probes.Recorder<>();
        scope.join().connect(join).start();
        r.r4 = join.completions;
    }
}
