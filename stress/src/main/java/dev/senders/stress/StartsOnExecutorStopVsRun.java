package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Schedulers;
import dev.senders.Sender;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = completions downstream; r2 = what it got (1 value, 2 stopped); r3 = times the
 * source was connected.
 */
@JCStressTest
@Description("startsOn on the library's executor scheduler (the fused operation; the task is queued at "
        + "start and actor 1 runs it) while actor 2 requests stop on the downstream token. Stop requested "
        + "before the task runs completes stopped and the source is never connected; otherwise the source "
        + "runs and its value is the completion. The operation is its own stop callback while the task is pending (one CAS PENDING -> RUNNING or PENDING -> COMPLETED decides); exactly one completion.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the task ran first: the source's value")
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "stop came first: stopped, the source never connected")
@Outcome(id = "1, 2, 1", expect = FORBIDDEN, desc = "the source was connected and yet the result is stopped")
@Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "a value without a source")
@Outcome(expect = FORBIDDEN, desc = "no completion, two completions, or any other combination")
@State
public class StartsOnExecutorStopVsRun {

    final InplaceStopSource stop = new InplaceStopSource();
    final AtomicInteger completions = new AtomicInteger();
    final AtomicInteger connects = new AtomicInteger();
    volatile int got;
    volatile Runnable task;

    final Receiver<Integer> downstream = new Receiver<>() {
        private final Env env = Env.of(Query.STOP_TOKEN, stop.token());

        @Override
        public void setValue(Integer v) {
            got = 1;
            completions.incrementAndGet();
        }

        @Override
        public void setError(Throwable error) {
            got = 3;
            completions.incrementAndGet();
        }

        @Override
        public void setStopped() {
            got = 2;
            completions.incrementAndGet();
        }

        @Override
        public Env env() {
            return env;
        }
    };

    final Sender<Integer> source = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            connects.incrementAndGet();
            return () -> r.setValue(1);
        }
    };

    {
        OperationState op = source.startsOn(Schedulers.fromExecutor(t -> task = t)).connect(downstream);
        op.start();
    }

    @Actor
    public void runTask() {
        task.run();
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = completions.get();
        r.r2 = got;
        r.r3 = connects.get();
    }
}
