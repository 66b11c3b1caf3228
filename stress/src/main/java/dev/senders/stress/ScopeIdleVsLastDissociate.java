package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = completions of the idle wait (observed by the arbiter, after the last dissociate);
 * r2 = the count the wait's receiver saw when it completed (-1 if never); r3 = where it completed
 * ({@link Probes#ON_FIRST} inline in its start, {@link Probes#ON_SECOND} on the dissociating
 * thread); r4 = the scope's state ordinal afterwards (1 = OPEN: waiting for idle ends nothing).
 */
@JCStressTest
@Description("CountingScope.whenIdle() vs the last dissociate(): the wait completes exactly once, "
        + "with the count at zero, inline if it saw zero, else on the dissociating thread, and the "
        + "scope stays OPEN.")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "wait started after the zero: completed inline")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "wait registered first: completed by the last dissociate")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the wait never completed (lost wake-up)")
@Outcome(id = "1, [1-9].*", expect = FORBIDDEN, desc = "completed before the count reached zero")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "completed twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination (e.g. the scope no longer OPEN)")
@State
public class ScopeIdleVsLastDissociate {

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    volatile long countAtIdle = -1;
    final Probes.Recorder<Void> idle = new Probes.Recorder<>(StopToken.never(), () -> countAtIdle = scope.count());
    volatile Thread waiter;
    volatile Thread dissociator;

    {
        token.tryAssociate();
    }

    @Actor
    public void waitForIdle() {
        waiter = Thread.currentThread();
        scope.whenIdle().connect(idle).start();
    }

    @Actor
    public void dissociate() {
        dissociator = Thread.currentThread();
        token.dissociate();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = idle.completions;
        r.r2 = (int) countAtIdle;
        Thread t = idle.completedOn;
        r.r3 = t == null ? Probes.NOWHERE : t == waiter ? Probes.ON_FIRST : t == dissociator ? Probes.ON_SECOND : Probes.ON_OTHER;
        r.r4 = scope.state().ordinal();
    }
}
