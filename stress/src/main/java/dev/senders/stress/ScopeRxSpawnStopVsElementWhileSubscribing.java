package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.core.Flowable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Result: r1 = the scope's count when both actors returned (1 is right), r2 = 1 if the source's
 * loop inside {@code subscribe} was cancelled before its last element, r3 = how many times it was
 * cancelled (at most 1).
 */
@JCStressTest
@Description("RxScopes.spawn into a CountingScope of a Flowable that emits its elements inside subscribe "
        + "(a synchronous source of many elements), while another thread requests stop on the scope. The "
        + "work is registered on the stop source only after subscribe returned; until then each element "
        + "checks the stop token, so a stop that comes while the loop runs cancels it at the next element, "
        + "and one that comes after the last element is seen by the registration. The work ends exactly "
        + "once either way; the association is never left held.")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the stop came before the spawn: never subscribed")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the stop came after the last element: cancelled by the registration's callback")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the stop came while the loop ran: cancelled at the next element")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "the stop was lost: the work still holds its association")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeRxSpawnStopVsElementWhileSubscribing {

    static final int ELEMENTS = 32;

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final LoopingFlowable flowable = new LoopingFlowable();

    {
        token.tryAssociate(); // another operation's association: must survive the race
    }

    @Actor
    public void spawn() {
        RxScopes.spawn(flowable, token);
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = flowable.cutShort ? 1 : 0;
        r.r3 = flowable.cancels;
    }

    /** Emits {@link #ELEMENTS} elements inside subscribe unless cancelled; never completes. */
    static final class LoopingFlowable extends Flowable<Integer> implements Subscription {
        volatile boolean cancelled;
        volatile boolean cutShort;
        volatile int cancels;

        @Override
        protected void subscribeActual(Subscriber<? super Integer> s) {
            s.onSubscribe(this);
            for (int i = 0; i < ELEMENTS; i++) {
                if (cancelled) {
                    cutShort = true;
                    return;
                }
                s.onNext(i);
            }
        }

        @Override
        public void request(long n) {
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            cancels++;
        }
    }
}
