package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.reactor.ReactorScopes;
import dev.senders.reactor.ScheduledTaskTracking;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import reactor.core.scheduler.Schedulers;

/**
 * Result: r1 = the scope's count afterwards (1 is right: another association stays), r2 = whether
 * the task was counted on the work (1: what it schedules is attributed), r3 = the scope's count
 * at the end of the task's body.
 */
@JCStressTest
@Description("ReactorScopes.spawn with ScheduledTaskTracking: a task the work scheduled while it was "
        + "subscribed starts (its count CAS on the work's word) while the publisher's onComplete claims "
        + "the work and releases it. The association is released exactly once, and never while a counted "
        + "task runs: either the task is counted and the release waits for its end, or it started after "
        + "the claim found no task running and runs untracked.")
@Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "counted: the release came after the task returned")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the task started after the release: untracked")
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "the task started after the claim, before the release: untracked")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "released while a counted task ran")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeReactorSpawnTaskStartVsRelease {

    static {
        ScheduledTaskTracking.install(); // for the whole fork
    }

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final SchedulingMono mono = new SchedulingMono(Schedulers::onSchedule);
    int counted;
    int countInTask;

    {
        token.tryAssociate(); // another operation's association: must survive the race
        mono.schedule(this::body);
        ReactorScopes.spawn(mono, token);
    }

    private void body() {
        counted = mono.attributes() ? 1 : 0;
        countInTask = (int) scope.count();
    }

    @Actor
    public void runTask() {
        mono.task().run();
    }

    @Actor
    public void complete() {
        mono.subscriber.onComplete();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = counted;
        r.r3 = countInTask;
    }
}
