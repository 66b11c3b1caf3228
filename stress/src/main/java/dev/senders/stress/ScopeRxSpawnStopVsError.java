package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = the scope's count afterwards (1 is right: the test holds another association),
 * r2 = how many times the upstream was disposed, r3 = errors the scope counted (the error after a
 * winning stop goes to {@code RxJavaPlugins.onError}, which is global and so not counted here).
 */
@JCStressTest
@Description("RxScopes.spawn of a Completable into a CountingScope (one object: observer, association, "
        + "stop registration and Disposable): the scope's requestStop() races the source's onError. "
        + "Exactly one completes the work and the association is released once; if the stop won, "
        + "the upstream was disposed (unless onError had already begun) and the error goes to "
        + "RxJavaPlugins.onError; if the error won, the scope counts it and nothing is disposed.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "onError won: the scope took the error")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the stop won: upstream disposed, the late error to RxJavaPlugins")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the stop won the claim after onError had begun (which drops the "
        + "upstream reference first): nothing left to dispose, the error to RxJavaPlugins")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(expect = FORBIDDEN, desc = "the error counted although the stop won, or any other combination")
@State
public class ScopeRxSpawnStopVsError {

    static {
        RxJavaPlugins.setErrorHandler(e -> { }); // the error after a winning stop lands here
    }

    final CountingScope scope = new CountingScope(e -> { });
    final AsyncScopeToken token = scope.getToken();
    final AtomicInteger disposes = new AtomicInteger();
    volatile CompletableObserver observer;

    {
        token.tryAssociate(); // another operation's association: must survive the race
        Completable source = new Completable() {
            @Override
            protected void subscribeActual(CompletableObserver o) {
                observer = o;
                o.onSubscribe(Disposable.fromRunnable(disposes::incrementAndGet));
            }
        };
        RxScopes.spawn(source, token);
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Actor
    public void error() {
        observer.onError(new IllegalStateException("boom"));
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = disposes.get();
        r.r3 = (int) scope.errorCount();
    }
}
