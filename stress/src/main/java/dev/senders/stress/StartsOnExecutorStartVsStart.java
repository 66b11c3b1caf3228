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
 * Result: r1 = completions downstream; r2 = start() calls that threw ProtocolViolationException;
 * r3 = second completions reported to Hooks.onErrorDropped.
 */
@JCStressTest
@Description("A caller that starts the fused startsOn operation (library executor scheduler, inline "
        + "executor) twice at once, from two threads. start checks and sets a marker with plain accesses "
        + "(no CAS) and never touches the completion word, so a racing second start may also submit but "
        + "cannot undo a completion: the completion CAS lets exactly one through (a version that wrote the "
        + "start into the completion word failed here with two). A start that comes after the first is "
        + "seen throws ProtocolViolationException.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the second start was seen and threw")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "both starts submitted: one completion delivered, the other reported")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "both submitted; the later task found the operation completed and did nothing")
@Outcome(expect = FORBIDDEN, desc = "no completion, two completions, or any other combination")
@State
public class StartsOnExecutorStartVsStart {

    /** Protocol violations reported on the current thread (each actor counts its own calls). */
    static final ThreadLocal<int[]> VIOLATIONS = ThreadLocal.withInitial(() -> new int[1]);

    static {
        Hooks.setOnErrorDropped(t -> {
            if (t instanceof ProtocolViolationException) {
                VIOLATIONS.get()[0]++;
            }
        });
    }

    final AtomicInteger completions = new AtomicInteger();
    final AtomicInteger threw = new AtomicInteger();
    int reported1;
    int reported2;

    /** Runs {@code action} and returns the violations it reported on this thread. */
    private static int counting(Runnable action) {
        int[] v = VIOLATIONS.get();
        int before = v[0];
        action.run();
        return v[0] - before;
    }

    final Receiver<Integer> downstream = new Receiver<>() {
        @Override
        public void setValue(Integer v) {
            completions.incrementAndGet();
        }

        @Override
        public void setError(Throwable error) {
            completions.incrementAndGet();
        }

        @Override
        public void setStopped() {
            completions.incrementAndGet();
        }
    };

    final Sender<Integer> source = r -> () -> r.setValue(1);
    final OperationState op = source.startsOn(Schedulers.fromExecutor(Runnable::run)).connect(downstream);

    private void start() {
        try {
            op.start();
        } catch (ProtocolViolationException e) {
            threw.incrementAndGet();
        }
    }

    @Actor
    public void start1() {
        reported1 = counting(this::start);
    }

    @Actor
    public void start2() {
        reported2 = counting(this::start);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = completions.get();
        r.r2 = threw.get();
        r.r3 = reported1 + reported2;
    }
}
