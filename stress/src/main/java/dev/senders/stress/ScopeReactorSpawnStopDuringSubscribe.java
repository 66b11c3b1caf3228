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
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * Result: r1 = the scope's count seen by the publisher at the end of its {@code subscribe} (-1 if
 * it was never subscribed), r2 = the scope's count afterwards (1 is right: the test holds another
 * association), r3 = 1 if the work's Disposable reports disposed.
 */
@JCStressTest
@Description("ReactorScopes.spawn of a never-completing publisher into a CountingScope while another "
        + "thread requests stop on the scope. A stop that comes while subscribe is still running on the "
        + "spawning thread (phase SUBSCRIBING -> STOP_PENDING) cancels the upstream but is completed by "
        + "the spawning thread after subscribe returned: the association is never released while the "
        + "source is still being subscribed. A stop before the spawn means the publisher is never "
        + "subscribed. Either way the association is released exactly once.")
@Outcome(id = "-1, 1, 1", expect = ACCEPTABLE, desc = "stop first: never subscribed")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "subscribed; the stop came during or after subscribe")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the association was released while subscribe was running")
@Outcome(id = ".*, [02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeReactorSpawnStopDuringSubscribe {

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    volatile int countAtEndOfSubscribe = -1;
    volatile Disposable disposable;

    {
        token.tryAssociate(); // another operation's association
    }

    @Actor
    public void spawn() {
        disposable = ReactorScopes.spawn(new Mono<Object>() {
            @Override
            public void subscribe(reactor.core.CoreSubscriber<? super Object> s) {
                s.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {
                    }

                    @Override
                    public void cancel() {
                    }
                });
                for (int i = 0; i < 64; i++) {
                    Thread.onSpinWait(); // widen the window in which the stop finds us subscribing
                }
                countAtEndOfSubscribe = (int) scope.count();
            }
        }, token);
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = countAtEndOfSubscribe;
        r.r2 = (int) scope.count();
        r.r3 = disposable.isDisposed() ? 1 : 0;
    }
}
