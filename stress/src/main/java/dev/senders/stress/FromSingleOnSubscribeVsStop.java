package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#STOPPED} 3); r3 = disposes
 * of the upstream {@code Disposable}; r4 = 1 if the receiver had completed when
 * {@code requestStop()} returned.
 */
@JCStressTest
@Description("The RxJava adapter's Disposable hand-off: RxSenders.fromSingle of a Single that calls "
        + "onSubscribe later, from its own thread (actor 1), vs a stop request (actor 2). The "
        + "Disposable arrives through PublisherOperation's SUBSCRIBED bit (no demand: no IN_REQUEST); "
        + "a stop that finds it disposes it, an onSubscribe that finds the completion claimed "
        + "disposes what it brings. The Disposable must be disposed exactly once and the receiver "
        + "stopped once, inline.")
@Outcome(id = "1, 3, 1, 1", expect = ACCEPTABLE, desc = "stopped once, inline; the Disposable disposed once")
@Outcome(id = "1, 3, 0, .", expect = FORBIDDEN, desc = "the Disposable was never disposed (leaked)")
@Outcome(id = "1, 3, [2-9], .", expect = FORBIDDEN, desc = "the Disposable was disposed twice")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromSingleOnSubscribeVsStop {

    volatile SingleObserver<? super Integer> observer;
    volatile int disposes;
    int doneAtStopReturn;

    final Disposable upstream = new Disposable() {
        @Override
        public void dispose() {
            DISPOSES.getAndAdd(FromSingleOnSubscribeVsStop.this, 1);
        }

        @Override
        public boolean isDisposed() {
            return disposes > 0;
        }
    };

    /** Keeps its observer for actor 1; never signals by itself. */
    final Single<Integer> single = new Single<>() {
        @Override
        protected void subscribeActual(SingleObserver<? super Integer> o) {
            observer = o;
        }
    };

    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Integer> receiver = new Probes.Recorder<>(stop.token(), null);

    {
        RxSenders.fromSingle(single).connect(receiver).start(); // subscribed, no onSubscribe yet
    }

    @Actor
    public void onSubscribe() {
        observer.onSubscribe(upstream);
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
        doneAtStopReturn = receiver.completions > 0 ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = disposes;
        r.r4 = doneAtStopReturn;
    }

    private static final VarHandle DISPOSES;

    static {
        try {
            DISPOSES = MethodHandles.lookup().findVarHandle(FromSingleOnSubscribeVsStop.class, "disposes", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
