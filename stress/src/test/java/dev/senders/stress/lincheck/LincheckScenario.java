package dev.senders.stress.lincheck;

import dev.senders.Hooks;
import dev.senders.scope.ScopeLeakedException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import kotlin.Unit;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.CustomScenarioDSLKt;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.AfterEach;
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
 * results. After each run it calls {@link #validate()} (Lincheck's one {@code @Validate}
 * method): no error may have reached {@link Hooks#onErrorDropped} (a second completion, a callback
 * that threw, a lost error), and the subclass's {@link #invariants()} must hold, the properties
 * that are not visible in results (exactly once, nothing left behind). It also reports deadlocks,
 * livelocks and unexpected exceptions.
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
 * <p><b>Adding a scenario</b>:
 * <ol>
 * <li>Create a public class in this package extending {@code LincheckScenario}, with a public
 *     no-argument constructor that builds the object under test through the public API.
 * <li>Annotate each operation with {@code @Operation}: a public method that performs one call of
 *     the API and returns what the caller can observe (a {@code boolean}, a state, {@code null}).
 *     Keep the return values to what the contract makes linearizable: a bulk operation (one that
 *     completes several pieces of work one after another) must not be observed midway through by
 *     a result; check it in {@link #invariants()} instead. For per-thread resources, take the
 *     thread's id as a parameter: {@code @Param(gen = ThreadIdGen.class) int tid}. For an
 *     operation that must happen at most once per scenario, use {@code @Operation(runOnce = true)}.
 * <li>Write the sequential specification: a plain class with the same operation methods (same
 *     names, parameters and result types) and a public no-argument constructor, modelling the
 *     contract without concurrency; return it from {@link #specification()}. Return {@code null}
 *     when every result is {@code void}: then the {@link #invariants()} are the check.
 * <li>Override {@link #invariants()} (throw {@link AssertionError} on a violation). Do not
 *     declare {@code @Validate} methods: Lincheck allows one, {@link #validate()}.
 * <li>Keep it small: 2-3 threads x 2-3 operations. The whole suite must stay within about two
 *     minutes on 2 cores; override {@link #iterations()}, {@link #invocations()} or
 *     {@link #stressInvocations()} if a scenario needs a different budget, and list in
 *     {@link #guarantees()} the probes and library code no race goes through (their shared
 *     accesses otherwise spend the interleaving budget).
 * <li>Random generation may rarely produce the one arrangement a race needs (operations that
 *     must run once, in order, before the racing ones): list such arrangements in
 *     {@link #customScenarios()} with {@link #scenario()}; model checking explores every
 *     interleaving of each of them (up to {@link #invocations()}), in addition to the generated
 *     ones.
 * </ol>
 * Run one scenario with {@code mvn -B verify -pl stress -am -Dtest=TheScenario
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
public abstract class LincheckScenario {

    /** The first error that reached {@link Hooks#onErrorDropped} during this instance's run. */
    private final AtomicReference<Throwable> dropped = new AtomicReference<>();

    /**
     * Each instance (Lincheck makes one per run) collects the dropped errors of its run. Leak
     * reports are left out: the Cleaner's thread makes them, at any time, about scopes of earlier
     * runs (including the runs of the scenario class Lincheck makes to compute expected results,
     * which are never validated); each scope scenario checks instead, in its invariants, that its
     * own scope ends joined.
     */
    protected LincheckScenario() {
        Hooks.setOnErrorDropped(e -> {
            if (!(e instanceof ScopeLeakedException)) {
                dropped.compareAndSet(null, e);
            }
        });
    }

    /**
     * After each run: nothing the run did was reported as dropped (the library lost or rejected no
     * signal), then {@link #invariants()}.
     */
    @Validate
    public final void validate() {
        Throwable e = dropped.get();
        if (e != null) {
            throw new AssertionError("an error reached Hooks.onErrorDropped: " + e, e);
        }
        invariants();
    }

    /** The scenario's invariants, checked after each run; throw {@link AssertionError} if one fails. */
    protected void invariants() {}

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

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
        return 20;
    }

    /** Interleavings explored per scenario by model checking. */
    protected int invocations() {
        return 1_000;
    }

    /** Runs per scenario in stress mode (each one synchronizes real threads: far slower than an interleaving). */
    protected int stressInvocations() {
        return 100;
    }

    /** Scenarios to check besides the generated ones; build them with {@link #scenario()}. */
    protected List<ExecutionScenario> customScenarios() {
        return List.of();
    }

    /** A builder of one custom scenario of this class's parameterless operations, by name. */
    protected final Scenario scenario() {
        return new Scenario(getClass());
    }

    /**
     * A custom scenario: operations (public no-argument {@code @Operation} methods of the scenario
     * class, by name) run first on one thread, then in parallel threads, then on one thread.
     */
    protected static final class Scenario {
        private final Class<?> type;
        private final List<String> initial = new ArrayList<>();
        private final List<List<String>> parallel = new ArrayList<>();
        private final List<String> post = new ArrayList<>();

        Scenario(Class<?> type) {
            this.type = type;
        }

        public Scenario initial(String... operations) {
            initial.addAll(Arrays.asList(operations));
            return this;
        }

        /** Adds one thread of the parallel part, running {@code operations} in order. */
        public Scenario thread(String... operations) {
            parallel.add(Arrays.asList(operations));
            return this;
        }

        public Scenario post(String... operations) {
            post.addAll(Arrays.asList(operations));
            return this;
        }

        public ExecutionScenario build() {
            return CustomScenarioDSLKt.scenario(b -> {
                if (!initial.isEmpty()) {
                    b.initial(t -> add(t, initial));
                }
                b.parallel(p -> {
                    for (List<String> ops : parallel) {
                        p.thread(t -> add(t, ops));
                    }
                    return Unit.INSTANCE;
                });
                if (!post.isEmpty()) {
                    b.post(t -> add(t, post));
                }
                return Unit.INSTANCE;
            });
        }

        private Unit add(DSLThreadScenario thread, List<String> operations) {
            for (String name : operations) {
                Method m;
                try {
                    m = type.getMethod(name);
                } catch (NoSuchMethodException e) {
                    throw new IllegalArgumentException(type.getSimpleName() + " has no public operation " + name + "()", e);
                }
                thread.actor(ReflectJvmMapping.getKotlinFunction(m));
            }
            return Unit.INSTANCE;
        }
    }

    private <O extends Options<O, ?>> O configure(O options, int invocations) {
        O o = options.iterations(iterations())
                .invocationsPerIteration(invocations)
                .threads(threads())
                .actorsPerThread(actorsPerThread())
                .actorsBefore(actorsBeforeAndAfter())
                .actorsAfter(actorsBeforeAndAfter());
        for (ExecutionScenario s : customScenarios()) {
            o = o.addCustomScenario(s);
        }
        Class<?> spec = specification();
        return spec == null ? o : o.sequentialSpecification(spec);
    }

    /**
     * Code the model checker runs without switching threads inside ({@link ManagedStrategyGuarantee}):
     * test probes and library code the scenario's races do not go through, whose shared accesses would
     * otherwise spend the interleaving budget. Use {@code ignore()} only for code that never waits.
     */
    protected List<ManagedStrategyGuarantee> guarantees() {
        return List.of();
    }

    /** Every interleaving of each generated scenario, up to {@link #invocations()} per scenario. */
    @Test
    void modelChecking() {
        ModelCheckingOptions o = configure(new ModelCheckingOptions(), invocations());
        for (ManagedStrategyGuarantee g : guarantees()) {
            o = o.addGuarantee(g);
        }
        o.check(getClass());
    }

    /** The same scenarios on real threads, {@link #stressInvocations()} runs each. */
    @Test
    void stress() {
        configure(new StressOptions(), stressInvocations()).check(getClass());
    }
}
