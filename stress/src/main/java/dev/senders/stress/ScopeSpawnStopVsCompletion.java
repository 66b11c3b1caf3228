package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = how the work ended (1 = value, 2 = stopped), r2 = the scope's count afterwards (1 is
 * right: the work's association was released once, the test holds another one), r3 = protocol
 * violations reported, r4 = 1 if the callback ran after {@code close()} had returned.
 */
@JCStressTest
@Description("Work spawned into a CountingScope, registered on its spawn receiver's stop token (the "
        + "receiver is that registration: StopNode bits and the contract guard share one word). One "
        + "thread completes the work (close() the registration, then setValue), the other requests "
        + "stop on the scope (the callback completes it with setStopped). The work arbitrates its own "
        + "completion, as a correct sender does. Exactly one completion reaches the receiver, the "
        + "association is released once, nothing is reported as a violation, and no callback runs "
        + "after close() returned.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "the value won; close() deregistered (or waited for) the callback")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "the stop won: the callback completed the work stopped")
@Outcome(id = ".*, [02-9], .*, .*", expect = FORBIDDEN, desc = "association released twice, or never")
@Outcome(id = ".*, .*, [1-9], .*", expect = FORBIDDEN, desc = "a completion was seen twice (protocol violation)")
@Outcome(id = ".*, .*, .*, 1", expect = FORBIDDEN, desc = "the callback ran after close() returned")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeSpawnStopVsCompletion {

    static volatile int violations;
    private static final VarHandle VIOLATIONS;
    private static final VarHandle DONE;

    static {
        try {
            VIOLATIONS = MethodHandles.lookup().findStaticVarHandle(ScopeSpawnStopVsCompletion.class, "violations", int.class);
            DONE = MethodHandles.lookup().findVarHandle(ScopeSpawnStopVsCompletion.class, "done", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        // A forked VM runs one test class: this hook only sees this test's violations.
        Hooks.setOnErrorDropped(t -> {
            if (t instanceof ProtocolViolationException) {
                VIOLATIONS.getAndAdd(1);
            }
        });
    }

    final CountingScope scope = new CountingScope();
    final AsyncScopeToken token = scope.getToken();
    final int violationsBefore = violations;
    volatile Receiver<? super Object> receiver;
    volatile StopCallback registration;
    volatile int done;
    volatile int how;
    volatile boolean closed;
    volatile boolean ranAfterClose;

    {
        token.tryAssociate(); // another operation's association: must survive the race
        Scopes.spawn(new Sender<Object>() {
            @Override
            public OperationState connect(Receiver<? super Object> r) {
                receiver = r;
                return () -> registration = r.env().stopToken().onStop(() -> {
                    if (closed) {
                        ranAfterClose = true;
                    }
                    if (DONE.compareAndSet(ScopeSpawnStopVsCompletion.this, 0, 1)) {
                        how = 2;
                        receiver.setStopped();
                    }
                });
            }
        }, token);
    }

    @Actor
    public void complete() {
        registration.close();
        closed = true;
        if (DONE.compareAndSet(this, 0, 1)) {
            how = 1;
            receiver.setValue(null);
        }
    }

    @Actor
    public void requestStop() {
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = how;
        r.r2 = (int) scope.count();
        r.r3 = violations - violationsBefore;
        r.r4 = ranAfterClose ? 1 : 0;
    }
}
