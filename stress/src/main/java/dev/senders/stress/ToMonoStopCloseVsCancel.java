package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.reactor.ReactorSenders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * Result: r1 = what the closing thread saw of the callback right after {@code close()} returned
 * (0 never started, 1 still running, 2 finished); r2 = how many times it ran in the end; r3 = 1
 * if the token reported stop requested after both actors.
 */
@JCStressTest
@Description("ReactorSenders.toMono: the subscription is the sender's stop token (SubscriptionStop, "
        + "the first callback in a field). The sender's close() of that registration (actor 1) vs "
        + "the subscriber's cancel() (actor 2). P2300 [stopcallback.cons]: after close() returns the "
        + "callback is not running and will never run; if it was running on the cancelling thread, "
        + "close() waited for it.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "close first: deregistered, never ran")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "cancel first: close() returned after the callback finished")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "callback still running after close() returned")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "callback started after close() returned")
@Outcome(id = "[0-3], [2-9], .*", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "cancel() did not request stop")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ToMonoStopCloseVsCancel {

    volatile StopToken token;
    volatile Probes.Callback callback;
    volatile StopCallback registration;
    volatile Subscription subscription;
    int afterClose;

    /** Registers one spinning callback on its receiver's token when started; never completes. */
    final Sender<Integer> sender = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            return () -> {
                StopToken t = r.env().stopToken();
                token = t;
                Probes.Callback cb = new Probes.Callback(t, 64); // the spin lets close() meet it mid-run
                callback = cb;
                registration = t.onStop(cb);
            };
        }
    };

    {
        ReactorSenders.toMono(sender).subscribe(new BaseSubscriber<Integer>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                subscription = s;
                s.request(1);
            }
        });
    }

    @Actor
    public void close() {
        registration.close();
        afterClose = callback.snapshot();
    }

    @Actor
    public void cancel() {
        subscription.cancel();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = afterClose;
        r.r2 = callback.started;
        r.r3 = token.stopRequested() ? 1 : 0;
    }
}
