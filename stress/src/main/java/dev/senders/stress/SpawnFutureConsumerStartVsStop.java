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
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result: r1 = the consumer's completions after the arbiter completed the work (late value must
 * not reach it); r2 = its kind ({@link Probes#STOPPED} 3 expected); r3 = 1 if the stop was
 * forwarded to the work; r4 = where the consumer completed ({@link Probes#ON_FIRST} the starting
 * thread, inline in start; {@link Probes#ON_SECOND} the stopping thread); r5 = the scope's count plus
 * 10 × the completions of a join started after the work completed (10: count 0, joined once).
 */
@JCStressTest
@Description("spawnFuture: the consumer's start (actor 1: registers its stop callback, then sets "
        + "STARTED) vs a stop request on the consumer's token from another thread (actor 2), the "
        + "work still running. Either way the consumer is stopped exactly once (inline in start if "
        + "the stop came first, else by the callback on the stopping thread), the stop is forwarded "
        + "to the work, and the value the work produces afterwards (arbiter) is not delivered; the "
        + "work's completion still releases the scope's count.")
@Outcome(id = "1, 3, 1, [12], 10", expect = ACCEPTABLE, desc = "consumer stopped once, stop forwarded; the late value was not delivered")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the consumer never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the consumer completed twice (a value after the stop was acknowledged)")
@Outcome(id = "1, [12], .*", expect = FORBIDDEN, desc = "a stopped consumer received the late value or an error instead")
@Outcome(id = "1, 3, 0, .*", expect = FORBIDDEN, desc = "the stop was not forwarded to the work")
@Outcome(id = "1, 3, 1, [12], .*", expect = FORBIDDEN, desc = "the scope's count not released exactly once, or the join did not complete once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SpawnFutureConsumerStartVsStop {

    final SimpleCountingScope scope = new SimpleCountingScope();
    /** Ignores stop: it completes with its value when the arbiter says so, as slow work would. */
    final Probes.Manual<Integer> work = new Probes.Manual<>(42, null, false);
    final InplaceStopSource consumerStop = new InplaceStopSource();
    final Probes.Recorder<Integer> consumer = new Probes.Recorder<>(consumerStop.token(), null);
    final OperationState consumerOp = Scopes.spawnFuture(work, scope.getToken()).connect(consumer);
    volatile Thread starter;
    volatile Thread stopper;

    @Actor
    public void start() {
        starter = Thread.currentThread();
        consumerOp.start();
    }

    @Actor
    public void stop() {
        stopper = Thread.currentThread();
        consumerStop.requestStop();
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        work.complete(Probes.VALUE);
        r.r1 = consumer.completions;
        r.r2 = consumer.kind;
        r.r3 = work.stopRequested();
        Thread t = consumer.completedOn;
        r.r4 = t == null ? Probes.NOWHERE : t == starter ? Probes.ON_FIRST : t == stopper ? Probes.ON_SECOND : Probes.ON_OTHER;
        Probes.Recorder<Void> join = new Probes.Recorder<>(StopToken.never(), null);
        scope.join().connect(join).start();
        r.r5 = (int) scope.count() + 10 * join.completions;
    }
}
