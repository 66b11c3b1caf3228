package dev.senders.stress.lincheck;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;

/**
 * {@link InplaceStopSource}: registration, deregistration and stop requests from any threads.
 * Results linearizable against the {@link Spec}: exactly one {@code requestStop} returns true, a
 * callback registered after stop was requested runs inline (before {@code onStop} returns), and
 * {@code stopRequested} agrees. And (the {@linkplain #invariants() invariants}): every callback runs at most once, never
 * after its deregistration returned (a deregistration that races the callback waits for it), and
 * once stop was requested every callback that was not deregistered has run exactly once.
 *
 * <p>Whether a deregistration prevented its callback is not a result: {@code requestStop} runs the
 * callbacks one after another, so a deregistration in between can win against a later callback and
 * lose against an earlier one, which no atomic stop can produce (correct: P2300 promises each
 * callback either runs or is deregistered, not a snapshot).
 */
public class InplaceStopSourceLincheckTest extends LincheckScenario {

    private static final int MAX_THREADS = 8;
    private static final int MAX_REGISTRATIONS = 8;

    private final InplaceStopSource source = new InplaceStopSource();
    /** Row t: the registrations made by thread t, in order; only thread t writes it. */
    private final Registration[][] registrations = new Registration[MAX_THREADS][MAX_REGISTRATIONS];
    private final int[] registered = new int[MAX_THREADS];
    private final int[] deregistered = new int[MAX_THREADS];

    public InplaceStopSourceLincheckTest() {}

    /** One callback: counts its runs; {@code runsAtClose} is what it had when close() returned. */
    static final class Registration implements Runnable {
        final AtomicInteger runs = new AtomicInteger();
        StopCallback handle;
        int runsAtClose = -1;

        @Override
        public void run() {
            runs.incrementAndGet();
        }
    }

    /** Registers a callback; true if it ran inline (stop was already requested). */
    @Operation
    public boolean register(@Param(gen = ThreadIdGen.class) int tid) {
        Registration r = new Registration();
        registrations[tid][registered[tid]++] = r;
        r.handle = source.token().onStop(r);
        return r.runs.get() == 1;
    }

    /** Deregisters this thread's oldest live registration, if any. */
    @Operation
    public void deregister(@Param(gen = ThreadIdGen.class) int tid) {
        if (deregistered[tid] == registered[tid]) {
            return;
        }
        Registration r = registrations[tid][deregistered[tid]++];
        r.handle.close();
        r.runsAtClose = r.runs.get();
    }

    @Operation
    public boolean requestStop() {
        return source.requestStop();
    }

    @Operation
    public boolean stopRequested() {
        return source.stopRequested();
    }

    @Override
    protected void invariants() {
        boolean stopped = source.stopRequested();
        for (Registration[] row : registrations) {
            for (Registration r : row) {
                if (r == null) {
                    continue;
                }
                int runs = r.runs.get();
                if (runs > 1) {
                    throw new AssertionError("a callback ran " + runs + " times");
                }
                if (r.runsAtClose >= 0 && runs != r.runsAtClose) {
                    throw new AssertionError("a callback ran after its deregistration returned");
                }
                if (r.runsAtClose < 0 && runs != (stopped ? 1 : 0)) {
                    throw new AssertionError("a live callback ran " + runs + " times, stop requested " + stopped);
                }
            }
        }
    }

    @Override
    protected Class<?> specification() {
        return Spec.class;
    }

    /** The contract as a flag: the first request wins; later registrations run inline. */
    public static final class Spec {
        private boolean stopped;

        public Spec() {}

        public boolean register(int tid) {
            return stopped;
        }

        public void deregister(int tid) {}

        public boolean requestStop() {
            boolean first = !stopped;
            stopped = true;
            return first;
        }

        public boolean stopRequested() {
            return stopped;
        }
    }
}
