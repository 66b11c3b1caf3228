package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Result: r1 = the value syncWait returned (-1 if it threw), r2 = 1 if the completing thread
 * observed syncWait's stop token as not requested.
 */
@JCStressTest
@Description("syncWait: the sender completes on another thread while the waiting thread is "
        + "between start() and parking in its RunLoop. The value must arrive (no lost wake-up of "
        + "the run loop by the receiver's finish()) and be the one sent; a hang is reported as a "
        + "timeout error.")
@Outcome(id = "42, 1", expect = ACCEPTABLE, desc = "syncWait returned the value set on the other thread")
@Outcome(id = "-1, .*", expect = FORBIDDEN, desc = "syncWait threw instead of returning the value")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "syncWait's stop token was requested without an interrupt")
@Outcome(expect = FORBIDDEN, desc = "syncWait returned another value (torn or stale result)")
@State
public class SyncWaitVsCompletionOnAnotherThread {

    /** Connects by publishing the receiver; the other actor completes it. */
    volatile Receiver<? super Integer> receiver;
    final Sender<Integer> handOff = r -> () -> receiver = r;
    int returned;
    int tokenQuiet;

    @Actor
    public void syncWait() {
        try {
            returned = Senders.syncWait(handOff);
        } catch (RuntimeException e) {
            returned = -1;
        }
    }

    @Actor
    public void complete() {
        Receiver<? super Integer> r;
        // Bounded: the other actor always starts the operation.
        while ((r = receiver) == null) {
            Thread.onSpinWait();
        }
        tokenQuiet = r.env().stopToken().stopRequested() ? 0 : 1;
        r.setValue(42);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = returned;
        r.r2 = tokenQuiet;
    }
}
