package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.StopToken;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result: r1 = the consumer's completions; r2 = its kind ({@link Probes#ERROR} 2,
 * {@link Probes#STOPPED} 3); r3 = calls of the scope's error handler; r4 = the scope's
 * {@code errorCount()}; r5 = the scope's count plus 10 × the completions of a join started by the
 * arbiter (10: count 0, joined once).
 */
@JCStressTest
@Description("spawnFuture: the work's error (actor 1) races the consumer's start with a stop token "
        + "that is already stopped (actor 2). A result already there is delivered whatever the token "
        + "says; a stop only races work still running. So either the consumer takes the error (RESULT "
        + "came first) and the scope's handler sees nothing, or the consumer completes stopped and the "
        + "error, which nobody took, reaches the scope's handler exactly once, counted. Never lost.")
@Outcome(id = "1, 2, 0, 0, 10", expect = ACCEPTABLE, desc = "the work finished first: the consumer took the error")
@Outcome(id = "1, 3, 1, 1, 10", expect = ACCEPTABLE, desc = "the consumer was stopped while the work ran: the error went to the scope's handler")
@Outcome(id = "1, 3, 0, .*", expect = FORBIDDEN, desc = "the error was lost")
@Outcome(id = "1, 2, [1-9], .*", expect = FORBIDDEN, desc = "the error was delivered twice")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the consumer never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the consumer completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SpawnFutureErrorVsStoppedConsumerStart {

    static final IllegalStateException BOOM = new IllegalStateException("boom");

    final AtomicInteger handled = new AtomicInteger();
    final SimpleCountingScope scope = new SimpleCountingScope(e -> handled.incrementAndGet());
    /** Ignores stop: it fails when actor 1 says so, as slow work would. */
    final Probes.Manual<Integer> work = new Probes.Manual<>(null, BOOM, false);
    final InplaceStopSource consumerStop = new InplaceStopSource();
    final Probes.Recorder<Integer> consumer = new Probes.Recorder<>(consumerStop.token(), null);
    final OperationState consumerOp;

    {
        consumerStop.requestStop();
        consumerOp = Scopes.spawnFuture(work, scope.getToken()).connect(consumer);
    }

    @Actor
    public void workFails() {
        work.complete(Probes.ERROR);
    }

    @Actor
    public void consumerStartsStopped() {
        consumerOp.start();
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = consumer.completions;
        r.r2 = consumer.kind;
        r.r3 = handled.get();
        r.r4 = (int) scope.errorCount();
        Probes.Recorder<Void> join = new Probes.Recorder<>(StopToken.never(), null);
        scope.join().connect(join).start();
        r.r5 = (int) scope.count() + 10 * join.completions;
    }
}
