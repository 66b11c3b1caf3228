package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.rxjava3.RxScheduledTaskTracking;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = the scope's count afterwards (1 is right: another association stays), r2 = whether
 * the task was counted on the work, r3 = the scope's count at the end of the task's body, r4 =
 * how many times the upstream was cancelled (1 is right).
 */
@JCStressTest
@Description("RxScopes.spawn with RxScheduledTaskTracking: dispose() (the claim, the upstream's cancel, then "
        + "the completion that finds a task counted and leaves the release PENDING, or releases) races a "
        + "task the work scheduled, from its start to its end (the count's decrement that finds PENDING and "
        + "releases). The association is released exactly once, by whichever comes last, and never while "
        + "a counted task runs.")
@Outcome(id = "1, 1, 2, 1", expect = ACCEPTABLE, desc = "counted: the release waited for the task's end")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "the task started after the release: untracked")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "the task started after the claim, before the release: untracked")
@Outcome(id = "1, 1, 1, .*", expect = FORBIDDEN, desc = "released while a counted task ran")
@Outcome(id = "[02-9], .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeRxSpawnDisposeVsTaskEnd {

    static {
        RxScheduledTaskTracking.install(); // for the whole fork
    }

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final SchedulingMono source = new SchedulingMono(RxJavaPlugins::onSchedule);
    final Disposable work;
    int counted;
    int countInTask;

    {
        token.tryAssociate(); // another operation's association: must survive the race
        source.schedule(this::body);
        work = RxScopes.spawn(Completable.fromPublisher(source), token);
    }

    private void body() {
        counted = source.attributes() ? 1 : 0;
        countInTask = (int) scope.count();
    }

    @Actor
    public void runTask() {
        source.task().run();
    }

    @Actor
    public void dispose() {
        work.dispose();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = (int) scope.count();
        r.r2 = counted;
        r.r3 = countInTask;
        r.r4 = source.cancels();
    }
}
