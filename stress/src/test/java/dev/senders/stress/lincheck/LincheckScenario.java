package dev.senders.stress.lincheck;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The base of every Lincheck scenario of the library: a subclass is one concurrent object under
 * test, and gets two JUnit tests, {@link #modelChecking()} and {@link #stress()}, with the
 * project's budget.
 *
 * <p><b>What Lincheck does.</b> It generates small concurrent scenarios from the subclass's
 * {@code @Operation} methods (an initial sequential part, a parallel part of {@link #threads()}
 * threads with {@link #actorsPerThread()} operations each, a final sequential part), runs each one
 * on a fresh instance of the subclass (created with its public no-argument constructor), and
 * checks that the results are linearizable: that some sequential order of the same operations,
 * run on {@link #specification()} (or, if that is null, on the subclass itself), gives the same
 * results. After each run it calls the subclass's {@code @Validate} methods, which assert the
 * invariants that are not visible in results (exactly once, nothing left behind). It also reports
 * deadlocks, livelocks and unexpected exceptions.
 * <ul>
 * <li>Model checking ({@link ModelCheckingOptions}) instruments the bytecode of the code under test
 *     and controls the thread scheduler: it explores the interleavings of each scenario
 *     systematically, switching threads at every shared-memory access, atomic and park/unpark,
 *     up to {@link #invocations()} interleavings per scenario, and prints the exact interleaving of
 *     a failure.
 * <li>Stress mode ({@link StressOptions}) runs the same scenarios on real threads, many times,
 *     without instrumentation: a check of the real JIT-compiled code and memory model.
 * </ul>
 *
 * <p><b>Adding a scenario</b> (for instance the Reactive Streams boundary's state machine):
 * <ol>
 * <li>Create a public class in this package extending {@code LincheckScenario}, with a public
 *     no-argument constructor that builds the object under test through the public API.
 * <li>Annotate each operation with {@code @Operation}: a public method that performs one call of
 *     the API and returns what the caller can observe (a {@code boolean}, a state, {@code null}).
 *     Keep the return values to what the contract makes linearizable: a bulk operation (one that
 *     completes several pieces of work one after another) must not be observed midway through by
 *     a result; check it with {@code @Validate} instead. For per-thread resources, take the
 *     thread's id as a parameter: {@code @Param(gen = ThreadIdGen.class) int tid}. For an
 *     operation that must happen at most once per scenario, use {@code @Operation(runOnce = true)}.
 * <li>Write the sequential specification: a plain class with the same operation methods (same
 *     names, parameters and result types) and a public no-argument constructor, modelling the
 *     contract without concurrency; return it from {@link #specification()}. Return {@code null}
 *     when every result is {@code void}: then the invariants of {@code @Validate} are the check.
 * <li>Add {@code @Validate} methods for the invariants (throw {@link AssertionError} on a
 *     violation).
 * <li>Keep it small: 2-3 threads x 2-3 operations. The whole suite must stay within about two
 *     minutes on 2 cores; override {@link #iterations()} or {@link #invocations()} if a scenario
 *     needs a different budget.
 * </ol>
 * Run one scenario with {@code mvn -B verify -pl stress -am -Dtest=TheScenario
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
public abstract class LincheckScenario {

    /** The sequential model the results are compared with; {@code null}: the scenario class itself. */
    protected Class<?> specification() {
        return null;
    }

    /** Threads of the parallel part. */
    protected int threads() {
        return 3;
    }

    /** Operations per thread in the parallel part. */
    protected int actorsPerThread() {
        return 2;
    }

    /** Operations of the initial and of the final sequential part, each. */
    protected int actorsBeforeAndAfter() {
        return 2;
    }

    /** Scenarios generated per mode. */
    protected int iterations() {
        return 30;
    }

    /** Interleavings explored (model checking) or runs (stress) per scenario. */
    protected int invocations() {
        return 1_000;
    }

    private <O extends Options<O, ?>> O configure(O options) {
        O o = options.iterations(iterations())
                .invocationsPerIteration(invocations())
                .threads(threads())
                .actorsPerThread(actorsPerThread())
                .actorsBefore(actorsBeforeAndAfter())
                .actorsAfter(actorsBeforeAndAfter());
        Class<?> spec = specification();
        return spec == null ? o : o.sequentialSpecification(spec);
    }

    /** Every interleaving of each generated scenario, up to {@link #invocations()} per scenario. */
    @Test
    void modelChecking() {
        configure(new ModelCheckingOptions()).check(getClass());
    }

    /** The same scenarios on real threads, {@link #invocations()} runs each. */
    @Test
    void stress() {
        configure(new StressOptions()).check(getClass());
    }
}
