package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.Senders;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = how the downstream completed (1 value, 2 error, 3 stopped), r2 = how many times,
 * r3 = 1 if the error was a TimeoutException.
 */
@JCStressTest
@Description("timeout: the deadline fires (the operation's timer task, run by an actor) while the source "
        + "completes with a value. Exactly one completion reaches downstream: the value if the source "
        + "won, else a TimeoutException (after the source completed, stopped or with its value).")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the source completed first: its value passed through")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "the deadline fired first: TimeoutException")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "no completion reached downstream")
@Outcome(id = ".*, [2-9], .*", expect = FORBIDDEN, desc = "more than one completion reached downstream")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class TimeoutFireVsCompletion {

    final Probes.Manual<Integer> source = new Probes.Manual<>(42);
    final Probes.Recorder<Integer> downstream = new Probes.Recorder<>();
    final OperationState op;

    public TimeoutFireVsCompletion() {
        op = Senders.timeout(source, Duration.ofDays(1)).connect(downstream);
        op.start(); // queues a timer task a day away; the completion cancels it
    }

    @Actor
    public void deadline() {
        ((Runnable) op).run(); // what the timer thread runs at the deadline
    }

    @Actor
    public void complete() {
        source.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = downstream.kind;
        r.r2 = downstream.completions;
        r.r3 = downstream.error instanceof TimeoutException ? 1 : 0;
    }
}
