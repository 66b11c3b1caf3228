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
 * Result: r1 = completions of the join (observed by the arbiter, after both actors returned: the
 * last dissociate has happened, so the join must have completed); r2 = the scope's count as the
 * join's receiver saw it when completed (-1 if never); r3 = where it completed:
 * {@link Probes#ON_FIRST} inline in the joiner's start, {@link Probes#ON_SECOND} on the
 * dissociating thread; r4 = the scope's state ordinal afterwards (6 = JOINED).
 */
@JCStressTest
@Description("SimpleCountingScope: the last dissociate() vs the start of join() (P3149R6 "
        + "[exec.simple.counting]). Whoever moves the word to JOINED drains the waiter stack: the join "
        + "completes exactly once, only when the count is zero, inline if it saw zero, else on the "
        + "thread of the last dissociate (its env has no scheduler).")
@Outcome(id = "1, 0, 1, 6", expect = ACCEPTABLE, desc = "join started after the last dissociate: completed inline")
@Outcome(id = "1, 0, 2, 6", expect = ACCEPTABLE, desc = "join waited: completed by the last dissociate")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "join never completed (lost wake-up)")
@Outcome(id = "1, [1-9].*", expect = FORBIDDEN, desc = "join completed before the count reached zero")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "join completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeDissociateVsJoin {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    volatile long countAtJoin = -1;
    final Probes.Recorder<Void> join = new Probes.Recorder<>(dev.senders.StopToken.never(),
            () -> countAtJoin = scope.count());
    volatile Thread joiner;
    volatile Thread dissociator;

    {
        token.tryAssociate(); // the one association the race releases
    }

    @Actor
    public void join() {
        joiner = Thread.currentThread();
        scope.join().connect(join).start();
    }

    @Actor
    public void dissociate() {
        dissociator = Thread.currentThread();
        token.dissociate();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = join.completions;
        r.r2 = (int) countAtJoin;
        Thread t = join.completedOn;
        r.r3 = t == null ? Probes.NOWHERE : t == joiner ? Probes.ON_FIRST : t == dissociator ? Probes.ON_SECOND : Probes.ON_OTHER;
        r.r4 = scope.state().ordinal();
    }
}
