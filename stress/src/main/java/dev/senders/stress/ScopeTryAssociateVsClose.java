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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = 1 if the associating actor saw {@code close()} already returned before it called
 * {@code tryAssociate()}; r2 = 1 if {@code tryAssociate()} succeeded (then it dissociates at once);
 * r3 = completions of a join started by the arbiter; r4 = the scope's state ordinal afterwards
 * (6 = JOINED).
 */
@JCStressTest
@Description("SimpleCountingScope: tryAssociate() vs close() (P3149R6 [exec.simple.counting]). "
        + "Once close() has returned, no association can succeed; an association that did succeed "
        + "is an ordinary one: its dissociate() is accepted and the scope then joins at once.")
@Outcome(id = "0, 1, 1, 6", expect = ACCEPTABLE, desc = "associated before the close; dissociated; joined")
@Outcome(id = "[01], 0, 1, 6", expect = ACCEPTABLE, desc = "refused: the close came first; joined")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "association succeeded after close() had returned")
@Outcome(id = "[01], [01], 0, .*", expect = FORBIDDEN, desc = "join never completed (count not back to zero)")
@Outcome(id = "[01], [01], 2, .*", expect = FORBIDDEN, desc = "join completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination (e.g. scope not JOINED after the join)")
@State
public class ScopeTryAssociateVsClose {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    volatile boolean closeReturned;
    int sawClosed;
    int associated;

    @Actor
    public void associate() {
        sawClosed = closeReturned ? 1 : 0;
        if (token.tryAssociate()) {
            associated = 1;
            token.dissociate();
        }
    }

    @Actor
    public void close() {
        scope.close();
        closeReturned = true;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        Probes.Recorder<Void> join = new Probes.Recorder<>();
        scope.join().connect(join).start();
        r.r1 = sawClosed;
        r.r2 = associated;
        r.r3 = join.completions;
        r.r4 = scope.state().ordinal();
    }
}
