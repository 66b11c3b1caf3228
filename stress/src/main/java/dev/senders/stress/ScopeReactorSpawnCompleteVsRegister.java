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
 * Result: r1 = the scope's count when both actors returned (1: the work ended; 2: still running,
 * the completer came before the subscription), r2 = 1 if the completer found the subscriber and
 * completed it, r3 = 1 if a registration was left linked in the scope's stop source once the work
 * ended (0 is right), r4 = how many times the upstream was cancelled (0 is right: nobody stops).
 */
@JCStressTest
@Description("ReactorScopes.spawn into a CountingScope of a source that does not end inside subscribe: "
        + "the spawning thread registers the work on the scope's stop source after subscribe returned "
        + "(CAS to REGISTERED, link, CAS to ACTIVE) while another thread completes it. A completion that "
        + "claims the work between the CAS and the link leaves telling the source to the spawning thread, "
        + "which does it once linked: the association is released once and no registration stays linked.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "completed before, during or after the registration")
@Outcome(id = "2, 0, 0, 0", expect = ACCEPTABLE, desc = "the completer came before the subscription; completed later")
@Outcome(id = ".*, .*, 1, .*", expect = FORBIDDEN, desc = "a registration left linked after the work ended")
@Outcome(expect = FORBIDDEN, desc = "any other combination: released twice or never, or cancelled")
@State
public class ScopeReactorSpawnCompleteVsRegister {

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

    @Actor
    public void complete() {
        if (mono.completeIfSubscribed()) {
            completed = 1;
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = completed;
        if (completed == 0) {
            mono.subscriber.onComplete(); // the spawn has returned: end the work now
        }
        r.r3 = StopSources.head(scope) == null && scope.count() == 1 ? 0 : 1;
        r.r4 = mono.cancels();
    }
}
