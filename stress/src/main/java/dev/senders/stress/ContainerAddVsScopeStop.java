package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.CountingScope;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import reactor.core.Disposable;

/**
 * Result: r1 = what add returned (1 true, 0 false); r2 = times the member was disposed; r3 = the
 * scope's count; r4 = the view's size.
 */
@JCStressTest
@Description("A container view of a CountingScope (ReactorScopes.asComposite; RxScopes.asContainer "
        + "shares the member set, internal.ScopeMembers): add (actor 1: associate, insert, re-read "
        + "'stop requested') races the scope's requestStop (actor 2: the view's stop callback drains "
        + "the members). Dekker on volatile accesses: either the drain sees the member or add sees the "
        + "stop and takes it back. The member is disposed exactly once and nothing holds the count.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "add won: held, then the stop's drain disposed and released it")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "the stop came first: add disposed the member and refused it")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "the member was never disposed (left behind)")
@Outcome(id = ".*, [2-9], .*", expect = FORBIDDEN, desc = "the member was disposed twice")
@Outcome(expect = FORBIDDEN, desc = "the count or the view still holds the member")
@State
public class ContainerAddVsScopeStop {

    final CountingScope scope = new CountingScope();
    final Disposable.Composite view = ReactorScopes.asComposite(scope);
    final AtomicInteger disposals = new AtomicInteger();
    final Disposable member = disposals::incrementAndGet;
    volatile int added;

    @Actor
    public void add() {
        added = view.add(member) ? 1 : 0;
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = added;
        r.r2 = disposals.get();
        r.r3 = (int) scope.count();
        r.r4 = view.size();
    }
}
