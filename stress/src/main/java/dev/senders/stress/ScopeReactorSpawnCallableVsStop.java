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
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * Result: r1 = the scope's count afterwards (1 is right: another operation's association), r2 = 1 if
 * the callable ran, r3 = 1 if the spawn's {@code Disposable} reads disposed.
 */
@JCStressTest
@Description("ReactorScopes.spawn of a Callable Mono (called, not subscribed, and not registered on the "
        + "stop token: decision U7) into a CountingScope races the scope's requestStop(). The spawn's "
        + "stopRequested() check decides: the stop first means the callable never runs; otherwise it runs "
        + "to its end. Either way the work ends before spawn returns and its association is released once.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the spawn checked first: the callable ran, then the work ended")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the stop came first: never called, ended stopped")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "spawn returned work that had not ended")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeReactorSpawnCallableVsStop {

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    int ran; // written and read on the spawning thread only (the arbiter runs after both actors)
    Disposable disposable;

    {
        token.tryAssociate(); // another operation's association: must survive the race
    }

    @Actor
    public void spawn() {
        disposable = ReactorScopes.spawn(Mono.fromRunnable(() -> ran = 1), token);
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = ran;
        r.r3 = disposable.isDisposed() ? 1 : 0;
    }
}
