package dev.senders.stress;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;

/**
 * The fire-and-forget hooks' per-subscription step, for one scope per jcstress state: the
 * installed hook is one per JVM, so the tests call what it calls (the adapter's {@code lift} on a
 * tracker that is not installed as a hook) on a Reactor lambda subscriber made as
 * {@code Mono.subscribe(consumer, ...)} makes it. Reached through private lookups (the stress jar
 * runs on the class path).
 */
final class FireAndForgetHooks {

    private FireAndForgetHooks() {}

    /** The tracker of a state: TRACK for {@code scope}, the stress package counting as the application. */
    static FireAndForgetTracker tracker(CountingScope scope) {
        return new FireAndForgetTracker("Reactor", scope, FireAndForgetMode.TRACK,
                List.of("reactor.", "dev.senders.reactor."), false);
    }

    /** What {@code Mono.subscribe(consumer, errorConsumer, complete)} hands to Reactor's subscribe. */
    static CoreSubscriber<Object> monoLambda(Consumer<Object> consumer, Consumer<Throwable> errorConsumer, Runnable complete) {
        try {
            return (CoreSubscriber<Object>) LAMBDA_MONO.invoke(consumer, errorConsumer, complete, null);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The hook's step: the subscriber Reactor then subscribes to the source. */
    static CoreSubscriber<Object> lift(FireAndForgetTracker tracker, CoreSubscriber<Object> lambda) {
        try {
            return (CoreSubscriber<Object>) LIFT.invoke(tracker, lambda);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A subscription that ignores demand and counts its cancels in {@code cancelled}. */
    static Subscription counting(AtomicInteger cancelled) {
        return new Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
                cancelled.incrementAndGet();
            }
        };
    }

    static Disposable disposable(CoreSubscriber<Object> lambda) {
        return (Disposable) lambda;
    }

    private static final MethodHandle LAMBDA_MONO;
    private static final MethodHandle LIFT;

    static {
        try {
            Class<?> lambda = Class.forName("reactor.core.publisher.LambdaMonoSubscriber");
            LAMBDA_MONO = MethodHandles.privateLookupIn(lambda, MethodHandles.lookup()).findConstructor(lambda,
                    MethodType.methodType(void.class, Consumer.class, Consumer.class, Runnable.class, Consumer.class));
            Class<?> ff = Class.forName("dev.senders.reactor.FireAndForget");
            LIFT = MethodHandles.privateLookupIn(ff, MethodHandles.lookup()).findStatic(ff, "lift",
                    MethodType.methodType(CoreSubscriber.class, FireAndForgetTracker.class, CoreSubscriber.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
