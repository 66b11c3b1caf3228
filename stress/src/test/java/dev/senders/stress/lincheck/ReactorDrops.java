package dev.senders.stress.lincheck;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * What the Reactor shells of the boundary give up, counted: a {@link Context} with a discard hook
 * (elements {@code 0..63}, counted per value) and a per-context {@code onErrorDropped} hook
 * (errors, in order). A boundary scenario puts {@link #context()} where the adapter reads its
 * hooks (the receiver's {@code ReactorSenders.CONTEXT}, the subscriber's {@code currentContext()})
 * and checks that each element and error went exactly one way.
 */
final class ReactorDrops {

    /**
     * For {@link LincheckScenario#guarantees()}: the probes ({@link SignalLog}, this class) and
     * Reactor's hook lookups ({@link Operators}, contexts) run without thread switches inside; no
     * race of a boundary scenario goes through them, and none of them waits.
     */
    static final List<ManagedStrategyGuarantee> PROBES_AND_HOOKS = List.of(
            forClasses(SignalLog.class.getName(), ReactorDrops.class.getName(), Operators.class.getName())
                    .allMethods().ignore(),
            forClasses(n -> n.startsWith("reactor.util.context.")).allMethods().ignore());

    /** Reactor's key for a per-context {@code onErrorDropped} hook (read by {@code Operators.onErrorDropped}). */
    private static final String ERROR_DROPPED_HOOK = "reactor.onErrorDropped.local";

    private final AtomicIntegerArray discards = new AtomicIntegerArray(64);
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final Context context;

    ReactorDrops() {
        Consumer<Object> discard = v -> discards.incrementAndGet((Integer) v);
        Consumer<Throwable> dropped = errors::add;
        context = Operators.enableOnDiscard(Context.of(ERROR_DROPPED_HOOK, dropped), discard);
    }

    Context context() {
        return context;
    }

    /** How many times element {@code v} reached the discard hook. */
    int discards(int v) {
        return discards.get(v);
    }

    /** How many times {@code error} (this instance) reached the onErrorDropped hook. */
    int dropped(Throwable error) {
        return (int) errors.stream().filter(e -> e == error).count();
    }

    /** A dropped error other than those given, or {@code null}. */
    Throwable droppedOtherThan(Throwable... expected) {
        return errors.stream().filter(e -> !List.of(expected).contains(e)).findFirst().orElse(null);
    }

    @Override
    public String toString() {
        return "discards " + discards + ", dropped " + errors;
    }
}
