package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.Senders;
import dev.senders.test.VirtualTime;
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
 * Result: r1 = how the downstream completed (1 value, 2 error), r2 = how many times, r3 = 1 if the
 * error was a TimeoutException.
 */
@JCStressTest
@Description("timeout under virtual time: one thread advances the virtual clock past the deadline (running the "
        + "timer task, which may also be run by another state's advance) while the source completes with a "
        + "value and cancels that task. Exactly one completion reaches downstream.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the source completed first: its value passed through")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "the virtual deadline came first: TimeoutException")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "no completion reached downstream")
@Outcome(id = ".*, [2-9], .*", expect = FORBIDDEN, desc = "more than one completion reached downstream")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class VirtualTimeAdvanceVsCompletion {

    /** One clock for the whole run (installing is process-wide); every state's deadline is 1 ns after its start. */
    static final VirtualTime TIME = VirtualTime.install();

    final Probes.Manual<Integer> source = new Probes.Manual<>(42);
    final Probes.Recorder<Integer> downstream = new Probes.Recorder<>();
    final OperationState op;

    public VirtualTimeAdvanceVsCompletion() {
        op = Senders.timeout(source, Duration.ofNanos(1)).connect(downstream);
        op.start(); // queues the deadline on the virtual clock
    }

    @Actor
    public void advance() {
        TIME.advanceBy(Duration.ofNanos(1));
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
