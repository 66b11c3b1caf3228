package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.StopToken;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Result: r1 = the consumer's completions; r2 = its kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = 1 if the consumer had completed by the time its
 * {@code requestStop()} returned; r4 = 1 if the stop was forwarded to the work (its token fired);
 * r5 = where the consumer completed ({@link Probes#ON_FIRST} the work's thread, {@link Probes#ON_SECOND}
 * the consumer's); r6 = the scope's count plus 10 × the completions of a join started by the
 * arbiter (10: count 0, joined once).
 */
@JCStressTest
@Description("spawnFuture (P3149R6 [exec.spawn.future]): the work's completion (actor 1) races the "
        + "consumer's start and, right after it on the same thread, the consumer's stop request "
        + "(actor 2). SpawnFuture's word: RESULT (work done), STARTED (consumer started), DONE "
        + "(consumer completion claimed). Allowed: the value delivered once (on the work's thread if "
        + "STARTED came first, inline in start if RESULT did, even after the stop request if DONE "
        + "was claimed by the delivery), or the consumer stopped once, inline in requestStop, with "
        + "the stop forwarded to the work. The scope's count is released exactly once, when the "
        + "work completes.")
@Outcome(id = "1, 1, [01], 0, [12], 10", expect = ACCEPTABLE, desc = "the value won DONE: delivered once (requestStop may return before the delivery ran)")
@Outcome(id = "1, 3, 1, 1, 2, 10", expect = ACCEPTABLE, desc = "the stop won DONE: consumer stopped inline in requestStop, stop forwarded to the work")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the consumer never completed (result lost)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the consumer completed twice (e.g. stopped, then the value after the stop was acknowledged)")
@Outcome(id = "1, 3, 0, .*", expect = FORBIDDEN, desc = "stopped, but not by the time requestStop returned")
@Outcome(id = "1, 3, 1, 0, .*", expect = FORBIDDEN, desc = "consumer stopped but the stop was not forwarded to the work")
@Outcome(id = "1, [13], [01], [01], [12], ([0-9]|1[1-9]|[2-9][0-9])", expect = FORBIDDEN, desc = "the scope's count not released exactly once, or the join did not complete once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SpawnFutureCompletionVsConsumerStartAndStop {

    final SimpleCountingScope scope = new SimpleCountingScope();
    final Probes.Manual<Integer> work = new Probes.Manual<>(42);
    final InplaceStopSource consumerStop = new InplaceStopSource();
    final Probes.Recorder<Integer> consumer = new Probes.Recorder<>(consumerStop.token(), null);
    final OperationState consumerOp = Scopes.spawnFuture(work, scope.getToken()).connect(consumer);
    volatile Thread worker;
    volatile Thread starter;
    int doneAtStopReturn;

    @Actor
    public void completeWork() {
        worker = Thread.currentThread();
        work.complete(Probes.VALUE);
    }

    @Actor
    public void startThenStopConsumer() {
        starter = Thread.currentThread();
        consumerOp.start();
        consumerStop.requestStop();
        doneAtStopReturn = consumer.completions > 0 ? 1 : 0;
    }

    @Arbiter
    public void arbiter(IIIIII_Result r) {
        r.r1 = consumer.completions;
        r.r2 = consumer.kind;
        r.r3 = doneAtStopReturn;
        r.r4 = work.stopRequested();
        Thread t = consumer.completedOn;
        r.r5 = t == null ? Probes.NOWHERE : t == worker ? Probes.ON_FIRST : t == starter ? Probes.ON_SECOND : Probes.ON_OTHER;
        Probes.Recorder<Void> join = new Probes.Recorder<>(StopToken.never(), null);
        scope.join().connect(join).start();
        r.r6 = (int) scope.count() + 10 * join.completions;
    }
}
