package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
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
 * Result: r1 = completions the downstream receiver got; r2 = the value it got (1: the source's own
 * completion in start, 2: actor 2's); r3 = protocol violations reported to Hooks.onErrorDropped.
 */
@JCStressTest
@Description("startsOn on the library's executor scheduler (the fused operation; an executor that runs "
        + "the task inline) with a broken source that publishes its receiver in connect, where actor 2 "
        + "completes it with 2 while actor 1 connects and starts the source (whose start completes with 1). "
        + "The fused operation tells a completion during connect by thread identity (no CAS at start): "
        + "one on another thread is taken as the completion and the source is not started. Downstream "
        + "gets exactly one completion under every interleaving; any other is reported.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "actor 2 came before connect: the source's own value only")
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "actor 2 completed during connect (or before start): taken as the completion, the source not started")
@Outcome(id = "1, [12], 1", expect = ACCEPTABLE, desc = "both completed after start: one delivered, the other reported")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "no completion: lost")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "more than one completion downstream")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StartsOnExecutorCompletionDuringConnect {

    /** Protocol violations reported on the current thread (each actor counts its own calls). */
    static final ThreadLocal<int[]> VIOLATIONS = ThreadLocal.withInitial(() -> new int[1]);

    static {
        // A forked VM runs one test class: this hook only sees this test's violations.
        Hooks.setOnErrorDropped(t -> {
            if (t instanceof ProtocolViolationException) {
                VIOLATIONS.get()[0]++;
            }
        });
    }

    /** Spins in connect after publishing the receiver (without them actor 2 practically never lands there). */
    static final int SPINS = 64;

    final AtomicInteger completions = new AtomicInteger();
    int reported1;
    int reported2;

    /** Runs {@code action} and returns the violations it reported on this thread. */
    private static int counting(Runnable action) {
        int[] v = VIOLATIONS.get();
        int before = v[0];
        action.run();
        return v[0] - before;
    }
    volatile int value;
    volatile Receiver<? super Integer> published;

    final Receiver<Integer> downstream = new Receiver<>() {
        @Override
        public void setValue(Integer v) {
            value = v;
            completions.incrementAndGet();
        }

        @Override
        public void setError(Throwable error) {
            value = -1;
            completions.incrementAndGet();
        }

        @Override
        public void setStopped() {
            value = -2;
            completions.incrementAndGet();
        }
    };

    final Sender<Integer> source = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            published = r;
            for (int i = 0; i < SPINS; i++) {
                Thread.onSpinWait();   // widen the "during connect" window for actor 2
            }
            return () -> r.setValue(1);
        }
    };

    final OperationState op = source.startsOn(Schedulers.fromExecutor(Runnable::run)).connect(downstream);

    @Actor
    public void runOnExecutor() {
        reported1 = counting(op::start);
    }

    @Actor
    public void completeFromAnotherThread() {
        reported2 = counting(() -> {
            Receiver<? super Integer> r = published;
            if (r != null) {
                r.setValue(2);
            }
        });
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = completions.get();
        r.r2 = value;
        r.r3 = reported1 + reported2;
    }
}
