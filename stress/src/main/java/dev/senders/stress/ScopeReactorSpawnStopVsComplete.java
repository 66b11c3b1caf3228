package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorScopes;
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
 * Result: r1 = the scope's count afterwards (1 is right), r2 = how many times the upstream was
 * cancelled, r3 = how many errors the scope counted (0 is right).
 */
@JCStressTest
@Description("ReactorScopes.spawn into a CountingScope: the scope's requestStop() (the stop source runs "
        + "the work's own StopNode registration: RUNNING, then the phase CAS) races the publisher's "
        + "onComplete (whose claim CAS also cancels that registration). Exactly one completes the work; the "
        + "association is released once; the upstream is cancelled only if the stop won.")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "onComplete won; the stop found the work done or deregistered")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the stop won: upstream cancelled, then stopped")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(id = ".*, [2-9], .*", expect = FORBIDDEN, desc = "upstream cancelled more than once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeReactorSpawnStopVsComplete {

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final CapturingMono mono = new CapturingMono();

    {
        token.tryAssociate(); // another operation's association: must survive the race
        ReactorScopes.spawn(mono, token);
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Actor
    public void complete() {
        mono.subscriber.onComplete();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = mono.cancels();
        r.r3 = (int) scope.errorCount();
    }
}
