package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.internal.Trampoline;
import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = the times the source's Disposable was disposed; r2 = 1 if the observer's Disposable
 * reported isDisposed() after both actors; r3 = onSuccess calls.
 */
@JCStressTest
@Description("Trampoline.BREAK_DEPTH nested toSingle(fromSingle(s).then(f)).map(..) levels: the innermost fused "
        + "observer is subscribed that many trampoline frames deep, so a TrampolinedObserver stands before its "
        + "consumer and is the Disposable the outermost observer holds, handed out before the source was "
        + "subscribed. The source's onSubscribe and onSuccess (actor 1) race the observer's dispose() (actor 2). "
        + "The source's Disposable is disposed exactly once: by dispose(), or by the onSubscribe that finds it "
        + "disposed; the value may still arrive (the source ignores disposal).")
@Outcome(id = "1, 1, [01]", expect = ACCEPTABLE, desc = "the source's Disposable disposed once")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the dispose never reached the source")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the source's Disposable disposed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class DeepStagedSingleDisposeVsOnSubscribe {

    final AtomicInteger disposals = new AtomicInteger();
    final Disposable upstream = Disposable.fromAction(disposals::incrementAndGet);
    volatile SingleObserver<? super Integer> sourceObserver;
    volatile Disposable disposable;
    volatile int onSuccess;

    {
        Single<Integer> s = new Single<Integer>() {
            @Override
            protected void subscribeActual(SingleObserver<? super Integer> observer) {
                sourceObserver = observer;
            }
        };
        for (int i = 0; i < Trampoline.BREAK_DEPTH; i++) {
            s = RxSenders.toSingle(RxSenders.fromSingle(s).then(v -> v)).map(v -> v);
        }
        s.subscribe(new SingleObserver<Integer>() {
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
            }
        });
        if (disposable == null) {
            throw new IllegalStateException("the innermost level is not trampolined: the observer has no Disposable "
                    + "before the source called onSubscribe");
        }
    }

    @Actor
    public void sourceSignals() {
        sourceObserver.onSubscribe(upstream);
        sourceObserver.onSuccess(1);
    }

    @Actor
    public void dispose() {
        disposable.dispose();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = disposals.get();
        r.r2 = disposable.isDisposed() ? 1 : 0;
        r.r3 = onSuccess;
    }
}
