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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = the scope's count when every actor returned (1 is right: the work always ended),
 * r2 = how many times the upstream was cancelled, r3 = how many errors the scope counted (0 is
 * right), r4 = 1 if the completer found the subscriber and completed it.
 */
@JCStressTest
@Description("ReactorScopes.spawn into a CountingScope of a source that does not end inside subscribe, "
        + "while another thread completes it (if subscribed yet) and then requests stop on the scope, both "
        + "racing the spawning thread's registration after subscribe: the stop may come before "
        + "the spawn (never subscribed), while subscribe runs or the spawning thread registers after it "
        + "(seen by the registration: STOP_PENDING, completed by the spawning thread), or after (the "
        + "callback). No stop is lost: the work always ends, exactly once, and the upstream is cancelled "
        + "at most once.")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "the completion won")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "the stop won: upstream cancelled, then stopped")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "the stop came before the spawn: never subscribed")
@Outcome(id = "1, 1, 0, 1", expect = FORBIDDEN, desc = "cancelled although the completion came first")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "the stop was lost: the work still runs")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeReactorSpawnCompleteVsRegisterVsStop {

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final AsyncShapedMono mono = new AsyncShapedMono();
    volatile int completed;

    {
        token.tryAssociate(); // another operation's association: must survive the race
    }

    @Actor
    public void spawn() {
        ReactorScopes.spawn(mono, token);
    }

    /** Completes the work if it is subscribed yet, then requests stop: both race the spawning thread's registration. */
    @Actor
    public void completeThenStop() {
        if (mono.completeIfSubscribed()) {
            completed = 1;
        }
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = mono.cancels();
        r.r3 = (int) scope.errorCount();
        r.r4 = completed;
    }
}
