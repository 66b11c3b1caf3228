package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
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
 * 1 STOPPED, 2 ABANDONED), r3 = 1 if the report says it was cut short, r4 = 1 if the scope is
 * {@code JOINED} afterwards.
 */
@JCStressTest
@Description("joinOrStopAsync within the grace: a stop request on its receiver races the last work's "
        + "completion. Exactly one report: JOINED if the join won; cut short otherwise (stop requested on the "
        + "scope, joined or not depending on whether the work had ended); the scope joins either way.")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "the join won")
@Outcome(id = "1, [12], 1, 1", expect = ACCEPTABLE, desc = "the stop request won: cut short, scope stopped")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "no report")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "more than one report")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "the scope did not join after its last work ended")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class JoinOrStopReceiverStopVsJoin {

    final CountingScope scope = new CountingScope("stress");
    final Probes.Manual<Void> work = new Probes.Manual<>(null, null, false);
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<ShutdownReport> downstream = new Probes.Recorder<>(stop.token(), null);
    final OperationState op;

    public JoinOrStopReceiverStopVsJoin() {
        Scopes.spawn(work, scope.getToken());
        op = Scopes.joinOrStopAsync(scope, Duration.ofDays(1), Duration.ofDays(1)).connect(downstream);
        op.start();
    }

    @Actor
    public void receiverStop() {
        stop.requestStop();
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
        r.r3 = report == null ? 9 : report.interrupted() ? 1 : 0;
        r.r4 = scope.state() == ScopeState.JOINED ? 1 : 0;
    }
}
