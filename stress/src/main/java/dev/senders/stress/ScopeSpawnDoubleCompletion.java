package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1, r2 = protocol violations reported on actor 1's / actor 2's thread for its own
 * completion; r3 = the scope's count afterwards (1 is right: the spawned work's association was
 * released once, the extra association held by the test is still there).
 */
@JCStressTest
@Description("Scopes.spawn given a broken sender that completes its receiver twice, from two threads "
        + "at once. SpawnReceiver's guard (GuardedReceiver): exactly one completion dissociates; the "
        + "other is reported to Hooks.onErrorDropped as a ProtocolViolationException and releases "
        + "nothing (else it would release another operation's association and a join could complete "
        + "under running work). The test holds a second association so a double release shows as "
        + "count 0 instead of an exception.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "actor 1's completion dissociated; actor 2's was reported")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "actor 2's completion dissociated; actor 1's was reported")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "double completion not detected")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both completions reported (the association never released)")
@Outcome(id = "[01], [01], [02-9]", expect = FORBIDDEN, desc = "the association released twice, or never")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeSpawnDoubleCompletion {

    /** Protocol violations reported on the current thread (each actor checks its own call). */
    static final ThreadLocal<int[]> VIOLATIONS = ThreadLocal.withInitial(() -> new int[1]);

    static {
        // A forked VM runs one test class: this hook only sees this test's violations.
        Hooks.setOnErrorDropped(t -> {
            if (t instanceof ProtocolViolationException) {
                VIOLATIONS.get()[0]++;
            }
        });
    }

    final SimpleCountingScope scope = new SimpleCountingScope();
    final AsyncScopeToken token = scope.getToken();
    volatile Receiver<? super Object> receiver;
    int reported1;
    int reported2;

    final Sender<Object> twice = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super Object> r) {
            receiver = r;
            return () -> { };
        }
    };

    {
        token.tryAssociate(); // another operation's association: must survive the race
        Scopes.spawn(twice, token);
    }

    private int complete() {
        int[] v = VIOLATIONS.get();
        int before = v[0];
        receiver.setValue(null);
        return v[0] - before;
    }

    @Actor
    public void complete1() {
        reported1 = complete();
    }

    @Actor
    public void complete2() {
        reported2 = complete();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = reported1;
        r.r2 = reported2;
        r.r3 = (int) scope.count();
    }
}
