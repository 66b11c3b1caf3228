package dev.senders.reactor;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.internal.FireAndForgetToken;
import dev.senders.scope.internal.LambdaFields;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.Fuseable;
import reactor.core.Scannable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.publisher.ParallelFlux;

/**
 * Finds the application's fire-and-forget subscriptions ({@code mono.subscribe()},
 * {@code flux.subscribe(consumer, ...)}: every {@code subscribe} overload that makes one of
 * Reactor's lambda subscribers) and reports or tracks them in a scope, with no change to the code
 * that subscribes:
 *
 * <pre>{@code
 * FireAndForgetTracker tracker = FireAndForget.install(scope, FireAndForgetMode.TRACK);
 * ...
 * tracker.close(); // removes the hook
 * }</pre>
 *
 * <ul>
 * <li>Found through Reactor's last-operator hook ({@code Hooks.onLastOperator}) under the key
 *     {@value #HOOK_KEY}, next to other hooks (automatic context propagation, Micrometer's) and
 *     removed by {@link FireAndForgetTracker#close()}. Reactor applies the hook on every
 *     {@code subscribe(Subscriber)}; the hook lets every subscriber but a lambda one through
 *     unchanged, straight to the source (fusion, the source's operator chain, its
 *     {@code Scannable} parent and the context are as without the hook), so {@code block()}, {@code subscribeWith(...)}, a user {@code BaseSubscriber}
 *     (an object the application owns and can cancel) and the subscriptions operators make to
 *     their sources are never found.
 * <li>Which lambda subscriptions are the application's, and what is listed for each: see
 *     {@link FireAndForgetTracker}. The default framework packages keep Reactor Netty's,
 *     Spring's, Micrometer's and the library's own subscriptions out.
 * <li>{@link FireAndForgetMode#REPORT}: counted and listed while they run, behaviour unchanged.
 * <li>{@link FireAndForgetMode#TRACK}: each is associated with {@code scope} as it is subscribed:
 *     the scope's join waits for it and its stop cancels it (the caller's {@code Disposable} then
 *     reports disposed); the caller's {@code dispose()} cancels it and releases the association at
 *     once; its elements, errors and completion reach its callbacks as before, except that an
 *     error of a subscription with no error callback goes to the scope's error handler (once)
 *     instead of Reactor's {@code onErrorDropped}. Once the scope is closed a new subscription runs
 *     untracked, counted by {@link FireAndForgetTracker#untrackedCount()}.
 * </ul>
 *
 * One installation per application: a second {@code install} before the first is closed fails.
 * On the module path the lambda subscribers' callbacks are readable only if {@code reactor.core}
 * opens {@code reactor.core.publisher} to {@code dev.senders.reactor}; without it every
 * subscription is located by a stack walk and errors are left to Reactor, and under Reactor's
 * automatic context propagation a lambda subscription to a publisher that is not one of Reactor's
 * own runs unfound.
 */
public final class FireAndForget {

    /** The key of the last-operator hook. */
    public static final String HOOK_KEY = "dev.senders.reactor.FireAndForget";

    /**
     * The installed tracker, or {@code null}: one per application. Written under the class's lock;
     * read by {@link #install} and, for a lambda subscriber, by every pass-through the hook made.
     */
    private static volatile @Nullable FireAndForgetTracker installed;

    private FireAndForget() {}

    /**
     * Installs the hook for {@code scope} in {@code mode}, with the default framework packages and
     * site capture only under debug capture.
     *
     * @param scope the scope found subscriptions are associated with ({@code TRACK})
     * @param mode {@code REPORT} or {@code TRACK}
     * @return the tracker: its counts and list; closing it removes the hook
     * @throws IllegalArgumentException if {@code mode} is {@code OFF}
     * @throws IllegalStateException if a tracker is installed already
     */
    public static FireAndForgetTracker install(CountingScope scope, FireAndForgetMode mode) {
        return install(scope, mode, FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES, false);
    }

    /**
     * Installs the hook for {@code scope} in {@code mode}.
     *
     * @param scope the scope found subscriptions are associated with ({@code TRACK})
     * @param mode {@code REPORT} or {@code TRACK}
     * @param frameworkPackages package prefixes whose subscriptions are never found
     * @param captureSites whether to locate the subscribe site of every found subscription (a stack
     *     walk each); debug capture turns it on too
     * @return the tracker: its counts and list; closing it removes the hook
     * @throws IllegalArgumentException if {@code mode} is {@code OFF}
     * @throws IllegalStateException if a tracker is installed already
     */
    public static synchronized FireAndForgetTracker install(CountingScope scope, FireAndForgetMode mode,
            Collection<String> frameworkPackages, boolean captureSites) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(mode, "mode");
        List<String> packages = List.copyOf(frameworkPackages);
        FireAndForgetTracker current = installed;
        if (current != null) {
            throw new IllegalStateException("a fire-and-forget tracker is installed for Reactor already (" + current
                    + "); close it before installing another: one per application");
        }
        FireAndForgetTracker tracker = new FireAndForgetTracker("Reactor", scope, mode, packages, captureSites);
        installed = tracker; // before the hook: a pass-through asks the installed tracker
        Hooks.onLastOperator(HOOK_KEY, new Hook(tracker));
        tracker.onClose(() -> uninstall(tracker));
        return tracker;
    }

    /**
     * The hook's step on one subscriber, with {@code tracker} (whether installed or not): a lambda
     * subscriber of the application's becomes a tracked one; anything else passes.
     */
    static CoreSubscriber<Object> lift(FireAndForgetTracker tracker, CoreSubscriber<Object> subscriber) {
        return Hook.lift(subscriber, tracker);
    }

    private static synchronized void uninstall(FireAndForgetTracker tracker) {
        if (installed == tracker) {
            Hooks.resetOnLastOperator(HOOK_KEY);
            installed = null; // pass-throughs made before let every subscriber through
        }
    }

    /**
     * The last-operator hook ({@code Hooks.onLastOperator}): Reactor applies it to
     * the publisher of every {@code subscribe(Subscriber)} ({@code Mono}, {@code Flux} and
     * {@code ParallelFlux}), and it returns a pass-through publisher of the same shape whose
     * {@code subscribe(CoreSubscriber)} makes a lambda subscriber of the application's a
     * {@link FireAndForgetSubscriber} and hands every other subscriber straight to the source's
     * {@code subscribe(CoreSubscriber)}. What the subscriber then sees is what it sees without the
     * hook: the source's own subscription (fusion: the pass-through is {@link Fuseable} when its
     * source is, so Reactor does not suppress fusion), the source's operator chain (subscribed by the
     * source itself), and its context. {@code Scannable.from(passThrough).scan(Attr.PARENT)} is the
     * source; every other attribute is the source's, but Reactor's internal-producer one (see the
     * notes). Runs on the subscribing thread; thread-safe.
     */
    static final class Hook implements Function<Publisher<Object>, Publisher<Object>> {
        /*
         * Implementation notes. Reactor's Operators.liftPublisher wraps each publisher in a
         * MonoLift/FluxLift (source, optimizable-operator link, lift function: 24 B) and calls a
         * BiFunction through the LiftFunction per subscribe; the pass-throughs here are one field
         * (16 B: the installed tracker is FireAndForget's static `installed`, read only for a lambda subscriber) and
         * test the subscriber's class with two reference compares before anything else. A
         * pass-through made while one tracker was installed asks the one installed when its
         * subscribe runs (none: every subscriber passes).
         *
         * Automatic context propagation: Reactor's subscribe(Subscriber) wraps the subscriber to
         * restore thread locals when the publisher is not one of Reactor's own (its
         * InternalProducerAttr), and liftPublisher's lift function wraps it before the lifter sees
         * it whenever propagation is on: either way a lambda subscriber would no longer be
         * recognizable. So the pass-through answers that attribute true and makes the same wrap
         * itself, around what it subscribes the source with, through Reactor's own
         * Operators.restoreContextOnSubscriberIfPublisherNonInternal (RESTORE): a foreign source's
         * subscriber restores thread locals as without the hook, and a lambda subscriber is found.
         * Both are package-private and reached with a private lookup; where reactor.core.publisher
         * is not open to this module, the pass-through answers every attribute as its source does
         * and makes no wrap: a lambda subscription to a foreign source under propagation then runs
         * as without the hook, unfound. A publisher of another shape (one some other hook
         * returned) gets liftPublisher (under propagation its lambda subscriptions run unfound).
         */

        private static final Class<?> LAMBDA_MONO = lambdaClass("reactor.core.publisher.LambdaMonoSubscriber");
        private static final Class<?> LAMBDA_FLUX = lambdaClass("reactor.core.publisher.LambdaSubscriber");
        private static final LambdaFields MONO_FIELDS = new LambdaFields(MethodHandles.lookup(), LAMBDA_MONO, "errorConsumer", null,
                "consumer", "errorConsumer", "completeConsumer", "subscriptionConsumer");
        private static final LambdaFields FLUX_FIELDS = new LambdaFields(MethodHandles.lookup(), LAMBDA_FLUX, "errorConsumer", null,
                "consumer", "errorConsumer", "completeConsumer", "subscriptionConsumer");
        /** Reactor's attribute for its own producers, or {@code null} if the package is not open to us. */
        private static final Scannable.@Nullable Attr<?> INTERNAL = internalAttr();
        /**
         * {@code Operators.restoreContextOnSubscriberIfPublisherNonInternal(Publisher, CoreSubscriber)},
         * or {@code null} if the package is not open to us (or {@link #INTERNAL} is missing).
         */
        private static final @Nullable MethodHandle RESTORE = INTERNAL == null ? null : restoreHandle();

        private final Function<? super Publisher<Object>, ? extends Publisher<Object>> lift;

        Hook(FireAndForgetTracker tracker) {
            this.lift = Operators.<Object, Object>liftPublisher((publisher, subscriber) -> lift(subscriber, tracker));
        }

        private static Class<?> lambdaClass(String name) {
            try {
                return Class.forName(name, false, Hooks.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("this Reactor has no " + name + "; the fire-and-forget hook needs"
                        + " reactor-core 3.5 or later", e);
            }
        }

        private static @Nullable MethodHandle restoreHandle() {
            try {
                return MethodHandles.privateLookupIn(Operators.class, MethodHandles.lookup()).findStatic(Operators.class,
                        "restoreContextOnSubscriberIfPublisherNonInternal",
                        MethodType.methodType(CoreSubscriber.class, Publisher.class, CoreSubscriber.class));
            } catch (ReflectiveOperationException | RuntimeException inaccessible) {
                return null;
            }
        }

        private static Scannable.@Nullable Attr<?> internalAttr() {
            try {
                Class<?> c = Class.forName("reactor.core.publisher.InternalProducerAttr", false, Hooks.class.getClassLoader());
                MethodHandles.Lookup l = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
                return (Scannable.Attr<?>) l.findStaticVarHandle(c, "INSTANCE", c).get();
            } catch (ReflectiveOperationException | RuntimeException inaccessible) {
                return null;
            }
        }

        @Override
        public Publisher<Object> apply(Publisher<Object> publisher) {
            if (publisher instanceof Mono) {
                return publisher instanceof Fuseable ? new FuseableMonoPassThrough<>((Mono<Object>) publisher)
                        : new MonoPassThrough<>((Mono<Object>) publisher);
            }
            if (publisher instanceof Flux) {
                return publisher instanceof Fuseable ? new FuseableFluxPassThrough<>((Flux<Object>) publisher)
                        : new FluxPassThrough<>((Flux<Object>) publisher);
            }
            if (publisher instanceof ParallelFlux) {
                return new ParallelPassThrough<>((ParallelFlux<Object>) publisher);
            }
            return lift.apply(publisher);
        }

        /**
         * The subscriber to subscribe the source with: a {@link FireAndForgetSubscriber} for a lambda
         * subscriber of the application's while a hook is installed, else {@code subscriber} itself.
         */
        static <T> CoreSubscriber<? super T> pass(CoreSubscriber<? super T> subscriber) {
            return lift(subscriber, null);
        }

        /** {@link #pass} with {@code tracker}, or with the installed one if {@code null}. */
        @SuppressWarnings("unchecked")
        static <T> CoreSubscriber<T> lift(CoreSubscriber<T> subscriber, @Nullable FireAndForgetTracker tracker) {
            Class<?> c = subscriber.getClass();
            if (c != LAMBDA_MONO && c != LAMBDA_FLUX) {
                return subscriber;
            }
            FireAndForgetTracker t = tracker != null ? tracker : installed;
            if (t == null) {
                return subscriber;
            }
            return (CoreSubscriber<T>) found(t, (CoreSubscriber<Object>) subscriber, c == LAMBDA_FLUX);
        }

        private static CoreSubscriber<Object> found(FireAndForgetTracker tracker, CoreSubscriber<Object> subscriber, boolean flux) {
            LambdaFields fields = flux ? FLUX_FIELDS : MONO_FIELDS;
            Object origin = tracker.origin(fields.firstCallback(subscriber));
            if (origin == null) {
                return subscriber;
            }
            AsyncScopeToken token = tracker.associate();
            FireAndForgetSubscriber<Object> work = new FireAndForgetSubscriber<>(subscriber,
                    FireAndForgetToken.tracked(token) && !fields.hasErrorCallback(subscriber), flux);
            work.start(token, origin);
            return work;
        }

        /**
         * What {@code subscribe(Subscriber)} would have subscribed {@code source} with, given
         * {@code subscriber}: under automatic context propagation, for a source that is not
         * Reactor's own, a subscriber that restores thread locals.
         */
        @SuppressWarnings("unchecked")
        static <T> CoreSubscriber<T> restore(Publisher<?> source, CoreSubscriber<T> subscriber) {
            MethodHandle h = RESTORE;
            if (h == null) {
                return subscriber;
            }
            try {
                return (CoreSubscriber<T>) (CoreSubscriber<?>) h.invokeExact(source, (CoreSubscriber<?>) subscriber);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("Reactor's context restoring failed: " + e, e);
            }
        }

        /**
         * The source's attributes, except {@code PARENT} (the source itself) and Reactor's
         * internal-producer attribute (see the implementation notes).
         */
        static @Nullable Object scanSource(Publisher<?> source, Scannable.Attr<?> key) {
            if (key == Scannable.Attr.PARENT) {
                return source;
            }
            if (key == INTERNAL && RESTORE != null) {
                return Boolean.TRUE; // the pass-through restores thread locals for a foreign source itself
            }
            return Scannable.from(source).scanUnsafe(key);
        }

        /** A {@code Mono} passed through. */
        static class MonoPassThrough<T> extends Mono<T> implements Scannable {
            final Mono<T> source;

            MonoPassThrough(Mono<T> source) {
                this.source = source;
            }

            @Override
            public final void subscribe(CoreSubscriber<? super T> actual) {
                source.subscribe(restore(source, pass(actual)));
            }

            @Override
            @SuppressWarnings("rawtypes") // Scannable's signature
            public final @Nullable Object scanUnsafe(Attr key) {
                return scanSource(source, key);
            }
        }

        /** A fuseable {@code Mono} passed through. */
        static final class FuseableMonoPassThrough<T> extends MonoPassThrough<T> implements Fuseable {
            FuseableMonoPassThrough(Mono<T> source) {
                super(source);
            }
        }

        /** A {@code Flux} (also a {@code ConnectableFlux} or {@code GroupedFlux}) passed through. */
        static class FluxPassThrough<T> extends Flux<T> implements Scannable {
            final Flux<T> source;

            FluxPassThrough(Flux<T> source) {
                this.source = source;
            }

            @Override
            public final void subscribe(CoreSubscriber<? super T> actual) {
                source.subscribe(restore(source, pass(actual)));
            }

            @Override
            public final int getPrefetch() {
                return source.getPrefetch();
            }

            @Override
            @SuppressWarnings("rawtypes") // Scannable's signature
            public final @Nullable Object scanUnsafe(Attr key) {
                return scanSource(source, key);
            }
        }

        /** A fuseable {@code Flux} passed through. */
        static final class FuseableFluxPassThrough<T> extends FluxPassThrough<T> implements Fuseable {
            FuseableFluxPassThrough(Flux<T> source) {
                super(source);
            }
        }

        /** A {@code ParallelFlux} passed through: each rail's subscriber is tested. */
        static final class ParallelPassThrough<T> extends ParallelFlux<T> implements Scannable {
            final ParallelFlux<T> source;

            ParallelPassThrough(ParallelFlux<T> source) {
                this.source = source;
            }

            @Override
            public int parallelism() {
                return source.parallelism();
            }

            @Override
            public int getPrefetch() {
                return source.getPrefetch();
            }

            @Override
            @SuppressWarnings("unchecked")
            public void subscribe(CoreSubscriber<? super T>[] subscribers) {
                CoreSubscriber<? super T>[] rails = subscribers;
                for (int i = 0; i < subscribers.length; i++) {
                    CoreSubscriber<? super T> s = pass(subscribers[i]);
                    if (s != subscribers[i]) {
                        if (rails == subscribers) { // a copy of the caller's (maybe LambdaSubscriber[]) array
                            rails = Arrays.copyOf(subscribers, subscribers.length, CoreSubscriber[].class);
                        }
                        rails[i] = s;
                    }
                }
                source.subscribe(rails);
            }

            @Override
            @SuppressWarnings("rawtypes") // Scannable's signature
            public @Nullable Object scanUnsafe(Attr key) {
                return scanSource(source, key);
            }
        }
    }
}
