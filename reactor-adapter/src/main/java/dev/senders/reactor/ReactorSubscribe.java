package dev.senders.reactor;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.reactivestreams.Publisher;
import reactor.core.CorePublisher;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * {@code publisher.subscribe(subscriber)} for the library's own subscribers (spawned work, a
 * publisher's sender operation, a nested subscription): what {@code Mono.subscribe(Subscriber)}
 * and {@code Flux.subscribe(Subscriber)} do, in the order they do it, without the two interface
 * tests they make on every call.
 *
 * <p>For a {@link Mono} or a {@link Flux} (class tests: no scan), when Reactor's automatic context
 * propagation cannot be wrapping subscribers (see {@link #contextMayWrap}): the
 * {@code Hooks.onLastOperator} hook ({@link Operators#onLastAssembly}), then the publisher's
 * {@code subscribe(CoreSubscriber)}, which is how Reactor's operators subscribe their sources (an
 * operator chain runs its own fused subscription loop there); a throw is reported as
 * {@code Mono.subscribe} reports it ({@link Operators#reportThrowInSubscribe}). The test
 * {@code Mono.subscribe} makes on the subscriber only matters for a subscriber that is itself a
 * {@code Fuseable.QueueSubscription}: none of the library's is. Any other publisher, or with
 * automatic context propagation on: {@code publisher.subscribe(subscriber)}.
 */
final class ReactorSubscribe {
    /*
     * Why: Mono.subscribe(Subscriber) tests subscriber instanceof Fuseable.QueueSubscription
     * and publisher instanceof OptimizableOperator. Both fail for the usual pair (our
     * subscriber, a source such as Mono.fromRunnable), and when the JIT cannot prove the two
     * classes (it cannot when the subscriber and the publisher come out of fields, as here), a failed
     * interface test searches the class's list of interfaces on every call: a cost per spawn that
     * the library's subscribers need not pay (docs/benchmarks.md has what it costs).
     */

    private ReactorSubscribe() {}

    /** Subscribes {@code subscriber} to {@code publisher} as {@code publisher.subscribe(subscriber)} would. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void subscribe(Publisher<?> publisher, CoreSubscriber<?> subscriber) {
        CorePublisher source;
        if (publisher instanceof Mono) {
            source = (Mono) publisher;
        } else if (publisher instanceof Flux) {
            source = (Flux) publisher;
        } else {
            ((Publisher) publisher).subscribe(subscriber);
            return;
        }
        if (contextMayWrap()) {
            ((Publisher) publisher).subscribe(subscriber); // Reactor wraps some subscribers then: its own path
            return;
        }
        subscribeAssembled(Operators.onLastAssembly(source), subscriber);
    }

    /**
     * The rest of {@link #subscribe} once the last-operator hook made {@code last} (for a caller
     * that applied {@link Operators#onLastAssembly} itself, and checked {@link #contextMayWrap}).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void subscribeAssembled(CorePublisher<?> last, CoreSubscriber<?> subscriber) {
        try {
            ((CorePublisher) last).subscribe((CoreSubscriber) subscriber);
        } catch (Throwable e) {
            Operators.reportThrowInSubscribe(subscriber, e);
        }
    }

    /**
     * Whether Reactor may wrap a subscriber to restore thread locals ({@code Hooks.enableAutomaticContextPropagation()}):
     * never without the context-propagation library (Reactor then ignores the switch); with it, what
     * {@code Hooks.isAutomaticContextPropagationEnabled()} says (Reactor 3.8 and later), or
     * {@code true} where that query does not exist (Reactor 3.7): then the publisher's own
     * {@code subscribe} decides.
     */
    static boolean contextMayWrap() {
        try {
            return (boolean) AUTOMATIC_CONTEXT_PROPAGATION.invokeExact();
        } catch (Throwable t) { // a constant, or a static getter: never throws
            throw new AssertionError(t);
        }
    }

    private static final MethodHandle AUTOMATIC_CONTEXT_PROPAGATION = automaticContextPropagation();

    private static MethodHandle automaticContextPropagation() {
        try {
            Class.forName("io.micrometer.context.ContextRegistry", false, Mono.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError absent) {
            return MethodHandles.constant(boolean.class, false);
        }
        try {
            return MethodHandles.publicLookup().findStatic(Hooks.class, "isAutomaticContextPropagationEnabled",
                    MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException olderReactor) {
            return MethodHandles.constant(boolean.class, true);
        }
    }
}
