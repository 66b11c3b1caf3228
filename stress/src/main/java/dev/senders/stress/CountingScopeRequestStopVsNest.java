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
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result, seen by the arbiter after both actors returned (the scope's stop was requested):
 * r1 = how the spawned work ended ({@link Probes#STOPPED} 3; 0 = still running);
 * r2 = how the nested work ended (same codes); r3 = completions of the nest's receiver and
 * r4 = its kind; r5 = the scope's count plus 10 × the completions of a join started by the
 * arbiter (10 is right: count 0, joined once).
 */
@JCStressTest
@Description("CountingScope: requestStop() vs tryAssociate() / nest start (P3149R6 "
        + "[exec.counting.scope]: requestStop reaches all associated work, present and future). "
        + "Actor 1 spawns work and starts nested work, both of which only end when their stop token "
        + "fires; actor 2 requests stop on the scope. Whichever comes first, both works must see "
        + "the stop and end: work started without seeing the stop and never stopped is the bug. "
        + "The nest's receiver has a stoppable token of its own (never fired), so nest goes through "
        + "stopWhen's two-callback path; spawn's receiver cannot stop, so spawn sees the scope's "
        + "token directly.")
@Outcome(id = "3, 3, 1, 3, 10", expect = ACCEPTABLE, desc = "both works saw the stop and ended; scope joined at count 0")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "spawned work never saw the stop (still running)")
@Outcome(id = "3, 0, .*", expect = FORBIDDEN, desc = "nested work never saw the stop (still running)")
@Outcome(id = "3, 3, [02-9], .*", expect = FORBIDDEN, desc = "the nest's receiver completed zero or several times")
@Outcome(id = "3, 3, 1, 3, .*", expect = FORBIDDEN, desc = "count not back to zero or join not completed once (an association leaked)")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class CountingScopeRequestStopVsNest {

    final CountingScope scope = new CountingScope();
    final Probes.Manual<Integer> spawned = new Probes.Manual<>(1);
    final Probes.Manual<Integer> nested = new Probes.Manual<>(2);
    final InplaceStopSource consumerStop = new InplaceStopSource();
    final Probes.Recorder<Integer> nestReceiver = new Probes.Recorder<>(consumerStop.token(), null);

    @Actor
    public void associate() {
        Scopes.spawn(spawned, scope.getToken());
        Scopes.nest(nested, scope.getToken()).connect(nestReceiver).start();
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = spawned.completed;
        r.r2 = nested.completed;
        r.r3 = nestReceiver.completions;
        r.r4 = nestReceiver.kind;
        Probes.Recorder<Void> join = new Probes.Recorder<>(StopToken.never(), null);
        scope.close();
        scope.join().connect(join).start();
        r.r5 = (int) scope.count() + 10 * join.completions;
    }
}
