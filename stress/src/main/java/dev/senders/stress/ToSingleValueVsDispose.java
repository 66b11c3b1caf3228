package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result: r1 = onSuccess calls; r2 = onError calls; r3 = 1 if stop was requested on the sender's
 * token; r4 = 1 if the sender saw that stop request before it delivered its value; r5 = 1 if
 * {@code isDisposed()} was true after both actors.
 */
@JCStressTest
@Description("The RxJava adapter's Disposable hand-off the other way: RxSenders.toSingle; the sender's "
        + "value (actor 1) vs the observer's dispose() (actor 2). The subscription (SenderSubscription "
        + "under the SenderToRxSubscription shell) is the observer's Disposable: whoever sets TERMINAL first "
        + "decides. Allowed: onSuccess once and no stop request, or the dispose wins: stop requested on "
        + "the sender and nothing signalled.")
@Outcome(id = "1, 0, 0, 0, 1", expect = ACCEPTABLE, desc = "the value won: onSuccess once; the dispose came too late to stop anything")
@Outcome(id = "0, 0, 1, [01], 1", expect = ACCEPTABLE, desc = "the dispose won: stop requested, the value dropped")
@Outcome(id = "1, 0, 1, [01], [01]", expect = FORBIDDEN, desc = "onSuccess although the dispose had requested stop")
@Outcome(id = "0, 0, 0, [01], [01]", expect = FORBIDDEN, desc = "neither signalled nor stopped (the value lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "onSuccess twice")
@Outcome(id = "[0-9], [1-9], [01], [01], [01]", expect = FORBIDDEN, desc = "an error signalled")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ToSingleValueVsDispose {

    final Probes.Manual<Integer> sender = new Probes.Manual<>(42, null, false); // ignores stop: its value always comes
    volatile int onSuccess;
    volatile int onError;
    volatile Disposable disposable;

    {
        RxSenders.toSingle(sender).subscribe(new SingleObserver<Integer>() {
            @Override
            public void onSubscribe(Disposable d) {
                disposable = d;
            }

            @Override
            public void onSuccess(Integer v) {
                onSuccess++;
            }

            @Override
            public void onError(Throwable e) {
                onError++;
            }
        });
    }

    @Actor
    public void value() {
        sender.complete(Probes.VALUE);
    }

    @Actor
    public void dispose() {
        disposable.dispose();
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = onSuccess;
        r.r2 = onError;
        r.r3 = sender.stopRequested();
        r.r4 = sender.sawStop ? 1 : 0;
        r.r5 = disposable.isDisposed() ? 1 : 0;
    }
}
