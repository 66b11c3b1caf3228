package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.StopToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = the nest receiver's completions; r2 = their kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = how the work ended (same codes); r4 = the scope's count plus
 * 10 × the completions of a join started by the arbiter (10: count 0, joined once).
 */
@JCStressTest
@Description("CountingScope + nest: running nested work completes with a value (actor 1) while the "
        + "scope's requestStop() runs its stop callback (actor 2), which makes the work complete "
        + "stopped on the stopping thread. stopWhen's completion closes both stop callbacks before "
        + "forwarding; closing waits for a callback running on another thread, so this race also "
        + "checks that the two sides cannot deadlock (a hang fails the run). Exactly one completion "
        + "reaches the receiver, matching how the work ended, and the association is released once.")
@Outcome(id = "1, 1, 1, 10", expect = ACCEPTABLE, desc = "the value won: delivered once")
@Outcome(id = "1, 3, 3, 10", expect = ACCEPTABLE, desc = "the stop won: the work ended stopped, delivered once")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the receiver never completed")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the receiver completed twice")
@Outcome(id = "1, (1, 3|3, 1), .*", expect = FORBIDDEN, desc = "the receiver's completion differs from the work's")
@Outcome(id = "1, [13], [13], .*", expect = FORBIDDEN, desc = "the association not released exactly once, or the join did not complete once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class NestValueVsScopeRequestStop {

    final CountingScope scope = new CountingScope();
    final Probes.Manual<Integer> work = new Probes.Manual<>(1);
    final InplaceStopSource receiverStop = new InplaceStopSource();
    final Probes.Recorder<Integer> receiver = new Probes.Recorder<>(receiverStop.token(), null);

    {
        Scopes.nest(work, scope.getToken()).connect(receiver).start();
    }

    @Actor
    public void value() {
        work.complete(Probes.VALUE);
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = work.completed;
        Probes.Recorder<Void> join = new Probes.Recorder<>(StopToken.never(), null);
        scope.join().connect(join).start();
        r.r4 = (int) scope.count() + 10 * join.completions;
    }
}
