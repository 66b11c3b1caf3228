package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Senders;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Result: r1 = what syncWait returned (42), or -2 for TimeoutException, -1 for anything else
 * thrown; r2 = how the source completed (1 value, 3 stopped by the waiter's stop request).
 */
@JCStressTest
@Description("syncWait(sender, Duration.ZERO): the waiter gives up at once (requests stop, then claims "
        + "the result) while the source completes with a value on another thread. Either the value "
        + "is returned (its completion claimed first) or TimeoutException is thrown; never a hang, "
        + "never another exception, never a value the source did not send.")
@Outcome(id = "42, 1", expect = ACCEPTABLE, desc = "the value's completion won and was returned")
@Outcome(id = "-2, 1", expect = ACCEPTABLE, desc = "the waiter gave up first; the late value was discarded")
@Outcome(id = "-2, 3", expect = ACCEPTABLE, desc = "the waiter's stop request completed the source stopped: TimeoutException")
@Outcome(id = "42, 3", expect = FORBIDDEN, desc = "a value returned although the source completed stopped")
@Outcome(id = "-1, .*", expect = FORBIDDEN, desc = "syncWait threw something other than TimeoutException")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SyncWaitDeadlineVsCompletion {

    final Probes.Manual<Integer> source = new Probes.Manual<>(42);
    int returned;

    @Actor
    public void waiter() {
        try {
            returned = Senders.syncWait(source, Duration.ZERO);
        } catch (TimeoutException e) {
            returned = -2;
        } catch (RuntimeException e) {
            returned = -1;
        }
    }

    @Actor
    public void complete() {
        // Bounded: the waiter always connects the source.
        while (source.receiver == null) {
            Thread.onSpinWait();
        }
        source.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = returned;
        r.r2 = source.completed;
    }
}
