package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.reactor.ReactorSenders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Result: r1 = the receiver's completions; r2 = their kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = subscriptions made to the publisher; r4 = cancels of the
 * subscription; r5 = elements discarded (Reactor's onDiscard hook); r6 = 1 if the receiver had
 * completed by the time {@code requestStop()} returned.
 */
@JCStressTest
@Description("ReactorSenders.fromPublisher (first element): start + the publisher's onNext (actor 1: "
        + "start subscribes; the publisher emits its element synchronously from request(1), like "
        + "Flux.just) vs a stop request on the receiver's token (actor 2). PublisherOperation's word: "
        + "whoever sets DONE_US/DONE_UP first completes the receiver; SUBSCRIBED and IN_REQUEST decide "
        + "who cancels; a stop that finds STARTING (start() still subscribing) sets STOP_PENDING and "
        + "leaves the stopped completion to start(), which gives it once subscribe has returned. "
        + "Allowed: the value (upstream then cancelled), or stopped with the subscription (if any) "
        + "cancelled and a late element discarded, completed inline by the stop or by start().")
@Outcome(id = "1, 1, 1, 1, 0, [01]", expect = ACCEPTABLE, desc = "the element won: value delivered once, upstream cancelled")
@Outcome(id = "1, 3, 1, 1, [01], [01]", expect = ACCEPTABLE, desc = "the stop won while start() was subscribing: subscription cancelled, a late element discarded, stopped by start() (or already when requestStop returned)")
@Outcome(id = "1, 3, 0, 0, 0, [01]", expect = ACCEPTABLE, desc = "the stop came before start subscribed: never subscribed, stopped (by start on actor 1)")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "double completion (e.g. a value after the stop was acknowledged)")
@Outcome(id = "1, [13], 1, 0, .*", expect = FORBIDDEN, desc = "subscribed but the subscription was never cancelled")
@Outcome(id = "1, 1, 1, 1, [1-9], .*", expect = FORBIDDEN, desc = "the element was both delivered and discarded")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class FromPublisherOnNextVsStop {

    volatile int subscriptions;
    volatile int cancels;
    volatile int discarded;
    int doneAtStopReturn;

    /** One element, emitted synchronously from request(n > 0) unless cancelled; no onComplete. */
    final Publisher<Integer> publisher = new Publisher<>() {
        @Override
        public void subscribe(Subscriber<? super Integer> s) {
            subscriptions++;
            s.onSubscribe(new Subscription() {
                volatile boolean cancelled;
                boolean emitted;

                @Override
                public void request(long n) {
                    if (!emitted && !cancelled) {
                        emitted = true;
                        s.onNext(7);
                    }
                }

                @Override
                public void cancel() {
                    cancelled = true;
                    CANCELS.getAndAdd(FromPublisherOnNextVsStop.this, 1);
                }
            });
        }
    };

    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Integer> receiver = new Probes.Recorder<>(
            Env.of(Query.STOP_TOKEN, stop.token())
                    .with(ReactorSenders.CONTEXT, Operators.enableOnDiscard(Context.empty(), v -> discarded++)),
            null);
    final OperationState op = ReactorSenders.fromPublisher(publisher).connect(receiver);

    @Actor
    public void startAndEmit() {
        op.start();
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
        doneAtStopReturn = receiver.completions > 0 ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = subscriptions;
        r.r4 = cancels;
        r.r5 = discarded;
        r.r6 = doneAtStopReturn;
    }

    private static final java.lang.invoke.VarHandle CANCELS;

    static {
        try {
            CANCELS = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(FromPublisherOnNextVsStop.class, "cancels", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
