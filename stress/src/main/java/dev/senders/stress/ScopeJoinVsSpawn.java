package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = what {@code spawn} returned (1 true, 0 false); r2 = runs of the spawned work;
 * r3 = completions of the join; r4 = the spawned work's state as the join's receiver saw it when
 * it completed: 0 not started, 1 running, 2 finished (-1 if the join never completed).
 */
@JCStressTest
@Description("SimpleCountingScope: the start of join() vs a concurrent Scopes.spawn() on an open, "
        + "unused scope (P3149R6; the stdexec fix: a join that sees count zero moves to JOINED at "
        + "once). Either the spawn associates first and the join waits for the work to finish, or "
        + "the join wins and the spawn is refused: spawned work never runs after the join completed "
        + "and is never lost.")
@Outcome(id = "1, 1, 1, 2", expect = ACCEPTABLE, desc = "spawn associated first; the join completed after the work finished")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE, desc = "join completed first; the spawn was refused")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "spawn accepted the work but it never ran (lost)")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "spawn refused the work but it ran")
@Outcome(id = "1, 1, 1, [01]", expect = FORBIDDEN, desc = "join completed while the spawned work had not finished (or not started)")
@Outcome(id = "[01], [01], 0, .*", expect = FORBIDDEN, desc = "join never completed")
@Outcome(id = "[01], [01], [2-9], .*", expect = FORBIDDEN, desc = "join completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeJoinVsSpawn {

    final SimpleCountingScope scope = new SimpleCountingScope();
    /** 0 not started, 1 running, 2 finished. */
    volatile int work;
    volatile int runs;
    volatile int workAtJoin = -1;
    final Probes.Recorder<Void> join = new Probes.Recorder<>(StopToken.never(), () -> workAtJoin = work);
    int spawned;

    /** Work that runs inline in start: marks itself running, then finished, then completes. */
    final Sender<Void> sender = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super Void> r) {
            return () -> {
                runs++; // only one thread ever runs it
                work = 1;
                Thread.onSpinWait();
                work = 2;
                r.setValue(null);
            };
        }
    };

    @Actor
    public void spawn() {
        spawned = Scopes.spawn(sender, scope.getToken()) ? 1 : 0;
    }

    @Actor
    public void join() {
        scope.join().connect(join).start();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = spawned;
        r.r2 = runs;
        r.r3 = join.completions;
        r.r4 = workAtJoin;
    }
}
