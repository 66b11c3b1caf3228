package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = runs of the work's stop callback; r2 = 1 if the work's token reports stop
 * requested; r3 = where the callback ran ({@link Probes#ON_FIRST} inline in {@code onStop},
 * {@link Probes#ON_SECOND} on the consumer's stopping thread); r4 = the consumer's completions
 * plus 10 × its kind ({@link Probes#STOPPED} 3) plus 100 × (the scope's count after the arbiter
 * completed the work).
 */
@JCStressTest
@Description("spawnFuture: the work's stop token is the future itself, and its InplaceStopSource is "
        + "created by the work's first onStop. Actor 1 (the running work) registers its first stop "
        + "callback, creating the source, while actor 2 requests stop on the started consumer's "
        + "token, which forwards the stop to the work (STOP bit, then the source if there is one). "
        + "The callback must run exactly once: inline in onStop if the stop came first, on the "
        + "stopping thread otherwise, never lost between the source's creation and the STOP bit.")
@Outcome(id = "1, 1, [12], 31", expect = ACCEPTABLE, desc = "the callback ran once; consumer stopped once; count released")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the work's callback was lost (the stop missed the source being created)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the work's callback ran twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class SpawnFutureWorkOnStopVsConsumerStop {

    /** Work that registers no stop callback in start: the test registers one later, from actor 1. */
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
    final Probes.Callback callback = new Probes.Callback();
    volatile Thread registrar;
    volatile Thread stopper;

    public SpawnFutureWorkOnStopVsConsumerStop() {
        Scopes.spawnFuture(work, scope.getToken()).connect(consumer).start();
    }

    @Actor
    public void workRegisters() {
        registrar = Thread.currentThread();
        work.receiver.env().stopToken().onStop(callback);
    }

    @Actor
    public void consumerStops() {
        stopper = Thread.currentThread();
        consumerStop.requestStop();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = callback.started;
        StopToken t = work.receiver.env().stopToken();
        r.r2 = t.stopRequested() ? 1 : 0;
        r.r3 = callback.where(registrar, stopper);
        work.receiver.setStopped();
        r.r4 = consumer.completions + 10 * consumer.kind + 100 * (int) scope.count();
    }
}
