package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = completions of join A; r2 = 1 if A completed on actor 1's thread (inside its
 * start), 0 if on another; r3 = 1 if actor 1 saw the scope JOINED right before starting A.
 */
@JCStressTest
@Description("SimpleCountingScope: a join starting while the last dissociate moves the scope to JOINED "
        + "and drains the waiting joins. Join B waits (count 1); actor 2 releases the last association "
        + "(JOINED, then the drain); actor 1 reads the state and starts join A, which may be pushed on "
        + "the waiter stack before the drain takes it. A join that starts on a JOINED scope completes "
        + "inline, on its own thread (Lincheck's ScopeWordLincheckTest found the drain completing it "
        + "instead); either way exactly once.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the scope was JOINED: A completed inline")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "A observed a zero count or JOINED itself (or the drain took it while it was starting) and completed inline")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "A waited and the drain completed it on actor 2's thread")
@Outcome(id = "1, 0, 1", expect = FORBIDDEN, desc = "A started on a JOINED scope but another thread completed it")
@Outcome(expect = FORBIDDEN, desc = "A never completed, or completed twice")
@State
public class ScopeJoinObservingJoinedVsDrain {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    final Probes.Recorder<Void> a = new Probes.Recorder<>();
    final Probes.Recorder<Void> b = new Probes.Recorder<>();
    volatile Thread actor1;
    volatile int sawJoined;

    {
        token.tryAssociate();
        scope.join().connect(b).start(); // OPEN_AND_JOINING, count 1: B waits
    }

    @Actor
    public void joinA() {
        actor1 = Thread.currentThread();
        sawJoined = scope.state() == ScopeState.JOINED ? 1 : 0;
        scope.join().connect(a).start();
    }

    @Actor
    public void releaseLast() {
        token.dissociate();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = a.completions;
        r.r2 = a.completedOn != null && a.completedOn == actor1 ? 1 : 0;
        r.r3 = sawJoined;
    }
}
