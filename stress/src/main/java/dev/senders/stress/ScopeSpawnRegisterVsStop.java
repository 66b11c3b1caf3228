package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = how many times the callback ran, r2 = where it ran (1 = registering thread, 2 =
 * stopping thread, 0 = nowhere, 3 = elsewhere), r3 = 1 if the callback saw {@code stopRequested()}
 * on the token it registered with.
 */
@JCStressTest
@Description("Work spawned into a CountingScope registers a callback on its receiver's stop token: the "
        + "spawn receiver itself, whose first registration is the receiver (a StopNode linked into the "
        + "scope's stop source, sharing its state word with the receiver's contract guard). Racing the "
        + "scope's requestStop(), the callback runs exactly once: inline on the registering thread if "
        + "stop came first, else on the stopping thread; either way it sees stopRequested() == true.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "stop first: the callback ran inline in onStop")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "registration first: requestStop ran the callback")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "callback lost: registered but never ran")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(id = "1, [03], .*", expect = FORBIDDEN, desc = "callback ran on a thread that neither registered nor stopped")
@Outcome(id = "1, [12], 0", expect = FORBIDDEN, desc = "callback ran while stopRequested() was still false")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class ScopeSpawnRegisterVsStop {

    final CountingScope scope = new CountingScope();
    volatile Receiver<? super Object> receiver;
    volatile Probes.Callback callback;
    volatile Thread registering;
    volatile Thread stopping;

    {
        Scopes.spawn(new Sender<Object>() {
            @Override
            public OperationState connect(Receiver<? super Object> r) {
                receiver = r;
                return () -> { };
            }
        }, scope.getToken());
        callback = new Probes.Callback(receiver.env().stopToken(), 0);
    }

    @Actor
    public void register() {
        registering = Thread.currentThread();
        StopToken token = receiver.env().stopToken();
        token.onStop(callback);
    }

    @Actor
    public void requestStop() {
        stopping = Thread.currentThread();
        scope.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = callback.started;
        r.r2 = callback.where(registering, stopping);
        r.r3 = callback.sawStopRequested ? 1 : 0;
    }
}
