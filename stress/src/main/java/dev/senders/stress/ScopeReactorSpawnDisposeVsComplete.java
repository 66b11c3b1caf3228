package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.SimpleCountingScope;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import reactor.core.Disposable;

/**
 * Result: r1 = the scope's count afterwards (1 is right: the spawned work's association was
 * released once, the test holds another one), r2 = how many times the upstream was cancelled,
 * r3 = 1 if the Disposable reports disposed.
 */
@JCStressTest
@Description("ReactorScopes.spawn into a CountingScope (the spawned work is one object: subscriber, "
        + "association, stop registration and Disposable; SpawnedWork's phase shares a word with the "
        + "StopNode bits), or, every other state, into a SimpleCountingScope (no registration: the "
        + "phase stays SUBSCRIBING, and dispose() takes the subscribed mark for ACTIVE). dispose() "
        + "races the publisher's onComplete: exactly one of them completes the work, the association "
        + "is released once, the registration on the scope's stop source (if any) is ended, and the "
        + "upstream is cancelled only if dispose won.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "onComplete won (dispose found the work done, or came after)")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "dispose won: upstream cancelled, then stopped")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(id = ".*, [2-9], .*", expect = FORBIDDEN, desc = "upstream cancelled more than once")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "not disposed after it ended")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeReactorSpawnDisposeVsComplete {

    static final AtomicInteger STATES = new AtomicInteger();

    final boolean stoppable = (STATES.getAndIncrement() & 1) == 0;
    final CountingScope counting = stoppable ? new CountingScope() : null;
    final SimpleCountingScope simple = stoppable ? null : new SimpleCountingScope();
    final AsyncScopeToken token = stoppable ? counting.getToken() : simple.getToken();
    final CapturingMono mono = new CapturingMono();
    final Disposable disposable;

    {
        token.tryAssociate(); // another operation's association: must survive the race
        disposable = ReactorScopes.spawn(mono, token);
    }

    @Actor
    public void dispose() {
        disposable.dispose();
    }

    @Actor
    public void complete() {
        mono.subscriber.onComplete();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = (int) (stoppable ? counting.count() : simple.count());
        r.r2 = mono.cancels();
        r.r3 = disposable.isDisposed() ? 1 : 0;
    }
}
