package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A scope with {@code maxOutstanding(2)} and one operation associated. Result: r1, r2 = whether
 * each actor's {@code tryAssociate()} succeeded; r3 = the count afterwards; r4 = refusals counted
 * as {@link RefusalReason#FULL}.
 */
@JCStressTest
@Description("CountingScope with maxOutstanding(2), one slot left: two racing tryAssociate() calls; the "
        + "limit is checked in the CAS that counts, so exactly one succeeds, and the refusal is counted "
        + "and leaves the count untouched.")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "the first actor took the last slot")
@Outcome(id = "0, 1, 2, 1", expect = ACCEPTABLE, desc = "the second actor took the last slot")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both associated: the limit was overshot")
@Outcome(expect = FORBIDDEN, desc = "any other combination (a lost slot, a count or refusal off)")
@State
public class ScopeLimitAssociateVsAssociate {

    final CountingScope scope = CountingScope.builder().maxOutstanding(2).build();
    final AsyncScopeToken token = scope.getToken();
    int first;
    int second;

    {
        token.tryAssociate();
    }

    @Actor
    public void associate1() {
        first = token.tryAssociate() ? 1 : 0;
    }

    @Actor
    public void associate2() {
        second = token.tryAssociate() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = first;
        r.r2 = second;
        r.r3 = (int) scope.count();
        r.r4 = (int) scope.refusedCount(RefusalReason.FULL);
        for (long n = scope.count(); n > 0; n--) {
            token.dissociate(); // leave nothing for the leak check to report
        }
    }
}
