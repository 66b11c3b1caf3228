package dev.senders.reactor;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.internal.FireAndForgetToken;
import dev.senders.scope.internal.LambdaFields;
import java.lang.invoke.MethodHandles;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Operators;

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
 *     unchanged, so {@code block()}, {@code subscribeWith(...)}, a user {@code BaseSubscriber}
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
 * subscription is located by a stack walk and errors are left to Reactor.
 */
public final class FireAndForget {

    /** The key of the last-operator hook. */
    public static final String HOOK_KEY = "dev.senders.reactor.FireAndForget";

    private static final Class<?> LAMBDA_MONO = lambdaClass("reactor.core.publisher.LambdaMonoSubscriber");
    private static final Class<?> LAMBDA_FLUX = lambdaClass("reactor.core.publisher.LambdaSubscriber");
    private static final LambdaFields MONO_FIELDS = new LambdaFields(MethodHandles.lookup(), LAMBDA_MONO, "errorConsumer", null,
            "consumer", "errorConsumer", "completeConsumer", "subscriptionConsumer");
    private static final LambdaFields FLUX_FIELDS = new LambdaFields(MethodHandles.lookup(), LAMBDA_FLUX, "errorConsumer", null,
            "consumer", "errorConsumer", "completeConsumer", "subscriptionConsumer");

    private static volatile @Nullable FireAndForgetTracker installed;

    private FireAndForget() {}

    private static Class<?> lambdaClass(String name) {
        try {
            return Class.forName(name, false, Hooks.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("this Reactor has no " + name + "; the fire-and-forget hook needs"
                    + " reactor-core 3.5 or later", e);
        }
    }

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
        installed = tracker;
        Hooks.onLastOperator(HOOK_KEY, Operators.<Object, Object>liftPublisher((publisher, subscriber) -> lift(tracker, subscriber)));
        tracker.onClose(() -> uninstall(tracker));
        return tracker;
    }

    private static synchronized void uninstall(FireAndForgetTracker tracker) {
        if (installed == tracker) {
            Hooks.resetOnLastOperator(HOOK_KEY);
            installed = null;
        }
    }

    /** The hook: a lambda subscriber of the application's becomes a tracked one; anything else passes. */
    static CoreSubscriber<Object> lift(FireAndForgetTracker tracker, CoreSubscriber<Object> subscriber) {
        Class<?> c = subscriber.getClass();
        LambdaFields fields;
        if (c == LAMBDA_MONO) {
            fields = MONO_FIELDS;
        } else if (c == LAMBDA_FLUX) {
            fields = FLUX_FIELDS;
        } else {
            return subscriber;
        }
        Object origin = tracker.origin(fields.firstCallback(subscriber));
        if (origin == null) {
            return subscriber;
        }
        AsyncScopeToken token = tracker.associate();
        FireAndForgetSubscriber<Object> work = new FireAndForgetSubscriber<>(subscriber,
                FireAndForgetToken.tracked(token) && !fields.hasErrorCallback(subscriber), c == LAMBDA_FLUX);
        work.start(token, origin);
        return work;
    }
}
