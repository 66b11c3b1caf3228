package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = the waiting join's completions; r2 = its kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = 1 if the scope ended JOINED; r4 = the completions of a second
 * join started by the arbiter (must be 1: the scope is joined).
 */
@JCStressTest
@Description("A waiting join's receiver stop (actor 1: the join completes stopped and unlinks its "
        + "waiter) races the last dissociate (actor 2: the scope moves to JOINED and fires the "
        + "waiters). The join op's own word (WAITING -> DONE, one CAS) decides: exactly one "
        + "completion, value or stopped; the scope is JOINED either way and a later join completes.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "the dissociate won: the join completed with a value")
@Outcome(id = "1, 3, 1, 1", expect = ACCEPTABLE, desc = "the stop won: the join completed stopped and left the waiters")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the join never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the join completed twice")
@Outcome(expect = FORBIDDEN, desc = "the scope did not end joined, or a later join did not complete once")
@State
public class ScopeJoinStopVsLastDissociate {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Void> join = new Probes.Recorder<>(stop.token(), null);

    {
        token.tryAssociate();
        scope.join().connect(join).start(); // waits: count 1
    }

    @Actor
    public void stopTheJoin() {
        stop.requestStop();
    }

    @Actor
    public void lastDissociate() {
        token.dissociate();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = join.completions;
        r.r2 = join.kind;
        r.r3 = scope.state() == ScopeState.JOINED ? 1 : 0;
        Probes.Recorder<Void> later = new Probes.Recorder<>(StopToken.never(), null);
        scope.join().connect(later).start();
        r.r4 = later.completions;
    }
}
