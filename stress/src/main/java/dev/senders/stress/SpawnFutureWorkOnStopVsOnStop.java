package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Result: r1, r2 = runs of the callbacks registered by actor 1 and actor 2, after the arbiter
 * requested stop on the consumer (which forwards it to the work).
 */
@JCStressTest
@Description("spawnFuture: two threads of the work register the first stop callbacks on the work's "
        + "token at once; each may create the lazily made InplaceStopSource, one CAS publishes one. "
        + "Both callbacks must end up on the published source: a later stop runs each exactly once.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both callbacks ran once")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "actor 1's callback was lost (registered on a source that was not published)")
@Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "actor 2's callback was lost (registered on a source that was not published)")
@Outcome(expect = FORBIDDEN, desc = "any other combination (a callback ran twice)")
@State
public class SpawnFutureWorkOnStopVsOnStop {

    /** Work that registers no stop callback in start: the actors register them. */
    static final class Lazy implements Sender<Integer> {
        volatile Receiver<? super Integer> receiver;

        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            receiver = r;
            return () -> { };
        }
    }

    final SimpleCountingScope scope = new SimpleCountingScope();
    final Lazy work = new Lazy();
    final InplaceStopSource consumerStop = new InplaceStopSource();
    final Probes.Recorder<Integer> consumer = new Probes.Recorder<>(consumerStop.token(), null);
    final Probes.Callback first = new Probes.Callback();
    final Probes.Callback second = new Probes.Callback();

    public SpawnFutureWorkOnStopVsOnStop() {
        Scopes.spawnFuture(work, scope.getToken()).connect(consumer).start();
    }

    @Actor
    public void registerFirst() {
        work.receiver.env().stopToken().onStop(first);
    }

    @Actor
    public void registerSecond() {
        work.receiver.env().stopToken().onStop(second);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        consumerStop.requestStop();
        r.r1 = first.started;
        r.r2 = second.started;
        work.receiver.setStopped();
    }
}
