package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorSenders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Result: r1 = onNext calls; r2 = onComplete calls; r3 = values discarded (Reactor's onDiscard
 * hook, bound in the subscriber's context); r4 = 1 if stop was requested on the sender's token;
 * r5 = 1 if the sender saw that stop request before it called setValue; r6 = 1 if an onNext ran
 * after {@code cancel()} had returned.
 */
@JCStressTest
@Description("ReactorSenders.toMono: the sender's setValue (actor 1) vs the subscriber's cancel() "
        + "(actor 2), demand already given. SenderSubscription's word (the core under toMono's SenderToReactorSubscription shell): whoever sets TERMINAL first "
        + "owns the subscriber. Allowed: the value emitted once (onNext + onComplete), or the cancel "
        + "wins: stop is requested on the sender and the value goes to the discard hook. A value both "
        + "emitted and discarded, or neither, or an onNext after the sender had seen the cancel's "
        + "stop request, is a bug. onNext after cancel() returned is allowed only when the value had "
        + "already won (RS 3.12: cancel is honoured eventually; Reactor's own Monos do the same).")
@Outcome(id = "1, 1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "the value won: onNext + onComplete before cancel() returned; no stop request")
@Outcome(id = "1, 1, 0, 0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "the value won TERMINAL; its onNext ran after the losing cancel() returned (RS 3.12: allowed)")
@Outcome(id = "0, 0, 1, 1, [01], [01]", expect = ACCEPTABLE, desc = "the cancel won: stop requested on the sender, the value discarded")
@Outcome(id = "1, [01], 1, .*", expect = FORBIDDEN, desc = "the value was both emitted and discarded")
@Outcome(id = "0, [01], 0, .*", expect = FORBIDDEN, desc = "the value was neither emitted nor discarded (lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "onNext called twice")
@Outcome(id = "1, [01], 0, [01], 1, .*", expect = FORBIDDEN, desc = "onNext after the sender had seen the cancel's stop request")
@Outcome(id = "0, 0, 1, 0, .*", expect = FORBIDDEN, desc = "cancel won but the sender was not asked to stop")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ToMonoValueVsCancel {

    final Probes.Manual<Integer> sender = new Probes.Manual<>(42, null, false); // a sender that ignores stop: its value always comes
    volatile int discarded;
    volatile int onNext;
    volatile int onComplete;
    volatile boolean cancelReturned;
    volatile int onNextAfterCancel;
    volatile Subscription subscription;

    final CoreSubscriber<Integer> subscriber = new CoreSubscriber<>() {
        private final Context context = Operators.enableOnDiscard(Context.empty(), v -> discarded++);

        @Override
        public Context currentContext() {
            return context;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(Integer v) {
            if (cancelReturned) {
                onNextAfterCancel = 1;
            }
            onNext++;
        }

        @Override
        public void onError(Throwable t) {
            onComplete += 100; // an error is never right here: shows up as "any other combination"
        }

        @Override
        public void onComplete() {
            onComplete++;
        }
    };

    {
        ReactorSenders.toMono(sender).subscribe(subscriber);
    }

    @Actor
    public void value() {
        sender.complete(Probes.VALUE);
    }

    @Actor
    public void cancel() {
        subscription.cancel();
        cancelReturned = true;
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        r.r1 = onNext;
        r.r2 = onComplete;
        r.r3 = discarded;
        r.r4 = sender.stopRequested();
        r.r5 = sender.sawStop ? 1 : 0;
        r.r6 = onNextAfterCancel;
    }
}
