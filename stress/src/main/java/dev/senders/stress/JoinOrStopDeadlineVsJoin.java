package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = completions of the shutdown's receiver, r2 = the report's outcome (0 JOINED,
 * 1 STOPPED, 2 ABANDONED), r3 = operations the report says remain, r4 = 1 if the scope is
 * {@code JOINED} afterwards.
 */
@JCStressTest
@Description("joinOrStopAsync after the grace deadline (stop requested, work ignores it): the stop deadline "
        + "(the operation's timer task, run by an actor) races the last work's completion (which completes "
        + "the join). Exactly one report: STOPPED if the join won, else ABANDONED; the abandoned join waiter "
        + "never keeps the scope from joining.")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "the join won: STOPPED, nothing left")
@Outcome(id = "1, 2, 1, 1", expect = ACCEPTABLE, desc = "the deadline won: ABANDONED with the work listed")
@Outcome(id = "1, 2, 0, 1", expect = ACCEPTABLE, desc = "the deadline won; the work ended while the report was made")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "no report")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "more than one report")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "the scope did not join after its last work ended")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class JoinOrStopDeadlineVsJoin {

    final CountingScope scope = new CountingScope("stress");
    final Probes.Manual<Void> work = new Probes.Manual<>(null, null, false);
    final Probes.Recorder<ShutdownReport> downstream =
            new Probes.Recorder<>(Env.of(Query.SCHEDULER, (Scheduler) Schedulers.inline()), null);
    final OperationState op;

    public JoinOrStopDeadlineVsJoin() {
        Scopes.spawn(work, scope.getToken());
        op = Scopes.joinOrStopAsync(scope, Duration.ofDays(1), Duration.ofDays(1)).connect(downstream);
        op.start();
        ((Runnable) op).run(); // the grace deadline: stop requested (inline), the work ignores it
    }

    @Actor
    public void stopDeadline() {
        ((Runnable) op).run(); // what the timer thread runs at the stop deadline
    }

    @Actor
    public void lastWorkEnds() {
        work.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = downstream.completions;
        ShutdownReport report = (ShutdownReport) downstream.value;
        r.r2 = report == null ? 9 : report.outcome().ordinal();
        r.r3 = report == null ? 9 : (int) report.remaining();
        r.r4 = scope.state() == ScopeState.JOINED ? 1 : 0;
    }
}
