package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1, r2 = what each {@code requestStop()} observed (1 = returned true, 2 = returned false
 * and {@code stopRequested()} was then true, 0 = returned false but stop not visible), r3 = how
 * many times the callback ran, r4 = where (1 = first actor, 2 = second actor).
 */
@JCStressTest
@Description("InplaceStopSource: two requestStop() calls race. P2300 [stopsource.mem]: exactly one "
        + "returns true and it runs the registered callback, exactly once; the loser returns false "
        + "and sees stopRequested() == true on return.")
@Outcome(id = "1, 2, 1, 1", expect = ACCEPTABLE, desc = "first actor won and ran the callback")
@Outcome(id = "2, 1, 1, 2", expect = ACCEPTABLE, desc = "second actor won and ran the callback")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both requestStop() calls returned true")
@Outcome(id = "2, 2, .*", expect = FORBIDDEN, desc = "neither requestStop() call returned true")
@Outcome(id = "(0, .*|[12], 0, .*)", expect = FORBIDDEN, desc = "a losing requestStop() returned before stopRequested() was true")
@Outcome(id = "[12], [12], 0, .*", expect = FORBIDDEN, desc = "callback lost")
@Outcome(id = "[12], [12], [2-9], .*", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(id = "(1, 2, 1, 2|2, 1, 1, 1)", expect = FORBIDDEN, desc = "the losing caller ran the callback")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class RequestStopVsRequestStop {

    final InplaceStopSource source = new InplaceStopSource();
    final Probes.Callback callback = new Probes.Callback(source.token(), 0);
    volatile Thread first;
    volatile Thread second;
    int r1;
    int r2;

    {
        source.token().onStop(callback);
    }

    private int stop() {
        if (source.requestStop()) {
            return 1;
        }
        return source.stopRequested() ? 2 : 0;
    }

    @Actor
    public void first() {
        first = Thread.currentThread();
        r1 = stop();
    }

    @Actor
    public void second() {
        second = Thread.currentThread();
        r2 = stop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = r1;
        r.r2 = r2;
        r.r3 = callback.started;
        r.r4 = callback.where(first, second);
    }
}
