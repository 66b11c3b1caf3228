package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.SpawnDecorator;
import dev.senders.scope.SpawnListener;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import reactor.core.Disposable;

/**
 * Result: r1 = how many times the listener was told the end (1 is right), r2 = the outcome it was
 * told (1 error, 2 stopped) * 10 + the errors the scope counted afterwards, r3 = the scope's count
 * when the end was told * 10 + the errors it had counted then (20: the work still associated,
 * its error not yet routed), r4 = the scope's count afterwards (1 is right: the test holds another
 * association).
 */
@JCStressTest
@Description("ReactorScopes.spawn through a token whose only decorator is a SpawnListener (the direct "
        + "path tells the listener itself, with the token as the work's only reference): a stop "
        + "(dispose() in one state, the scope's requestStop() in the next) races the publisher's "
        + "onError. The listener is told the end exactly once, with the winner's outcome, before "
        + "the error is routed and before the association is released; the scope counts the error "
        + "only if the error won.")
@Outcome(id = "1, 11, 20, 1", expect = ACCEPTABLE, desc = "onError won: ended ERROR, then routed and released")
@Outcome(id = "1, 20, 20, 1", expect = ACCEPTABLE, desc = "the stop won: ended STOPPED, then released; the late error dropped")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "the end told twice, or never")
@Outcome(id = ".*, .*, .*, [02-9]", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(expect = FORBIDDEN, desc = "ended after the release or the routing, or any other combination")
@State
public class ScopeListenedSpawnEndVsStop {

    static {
        reactor.core.publisher.Hooks.onErrorDropped(e -> { }); // the error after a winning stop lands here
    }

    static final AtomicInteger STATES = new AtomicInteger();

    final boolean dispose = (STATES.getAndIncrement() & 1) == 0;
    final CountingScope scope = new CountingScope(e -> { });
    final CapturingMono mono = new CapturingMono();
    final AtomicInteger ends = new AtomicInteger();
    volatile int outcome;
    volatile int seen;
    final Disposable disposable;

    {
        SpawnListener listener = new SpawnListener() {
            @Override
            protected void accepted(String scopeName, @Nullable String workName) {
            }

            @Override
            public void end(SpawnDecorator.Outcome o, @Nullable Throwable error) {
                seen = (int) scope.count() * 10 + (int) scope.errorCount();
                outcome = o.ordinal();
                ends.incrementAndGet();
            }
        };
        AsyncScopeToken token = listener.token(scope.getToken(), "stress");
        scope.getToken().tryAssociate(); // another operation's association: must survive the race
        disposable = ReactorScopes.spawn(mono, token);
    }

    @Actor
    public void stop() {
        if (dispose) {
            disposable.dispose();
        } else {
            scope.requestStop();
        }
    }

    @Actor
    public void error() {
        mono.subscriber.onError(new IllegalStateException("boom"));
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = ends.get();
        r.r2 = outcome * 10 + (int) scope.errorCount();
        r.r3 = seen;
        r.r4 = (int) scope.count();
    }
}
