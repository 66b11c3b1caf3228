package dev.senders.rxjava3;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.internal.FireAndForgetToken;
import dev.senders.scope.internal.LambdaFields;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.MaybeObserver;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Observer;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.core.SingleObserver;
import io.reactivex.rxjava3.functions.BiFunction;
import io.reactivex.rxjava3.observers.LambdaConsumerIntrospection;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.lang.invoke.MethodHandles;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;

/**
 * Finds the application's fire-and-forget subscriptions to RxJava's five types
 * ({@code single.subscribe()}, {@code observable.subscribe(onNext, ...)}: every {@code subscribe}
 * overload that makes one of RxJava's lambda observers: {@code ConsumerSingleObserver},
 * {@code BiConsumerSingleObserver}, {@code MaybeCallbackObserver},
 * {@code CallbackCompletableObserver}, {@code EmptyCompletableObserver}, {@code LambdaObserver},
 * {@code LambdaSubscriber}) and reports or tracks them in a scope, with no change to the code that
 * subscribes:
 *
 * <pre>{@code
 * FireAndForgetTracker tracker = FireAndForget.install(scope, FireAndForgetMode.TRACK);
 * ...
 * tracker.close(); // restores the plugin hooks found at install
 * }</pre>
 *
 * <ul>
 * <li>Found through {@code RxJavaPlugins.setOnSingleSubscribe}, {@code setOnMaybeSubscribe},
 *     {@code setOnCompletableSubscribe}, {@code setOnObservableSubscribe} and
 *     {@code setOnFlowableSubscribe}. RxJava has one slot per hook: a hook installed before is
 *     kept and called after this one (with the observer this one returned); {@code close()} puts
 *     it back, in each slot that still holds this hook (a slot replaced since is left alone, and
 *     this hook, chained below the new one, then lets everything through). Installing when
 *     {@code RxJavaPlugins.lockdown()} was called fails.
 * <li>Every other observer passes unchanged: {@code blockingGet()}, {@code test()}, user
 *     observers, the observers operators make for their sources, and the
 *     {@code subscribe(..., DisposableContainer)} forms (their container owns them).
 * <li>Which lambda subscriptions are the application's, what is listed and what {@code REPORT}
 *     and {@code TRACK} do: as for Reactor ({@code dev.senders.reactor.FireAndForget} and
 *     {@link FireAndForgetTracker}); in {@code TRACK} an error of a subscription with no error
 *     callback goes to the scope's error handler instead of {@code RxJavaPlugins.onError}.
 * </ul>
 *
 * One installation per application. On the module path RxJava's lambda observers' callbacks
 * cannot be read ({@code io.reactivex.rxjava3} does not open its internal packages): every
 * subscription is then located by a stack walk.
 */
public final class FireAndForget {

    private static final String INTERNAL = "io.reactivex.rxjava3.internal.";

    private static final Kind SINGLE_CONSUMER = new Kind("observers.ConsumerSingleObserver",
            FireAndForgetObserver.SINGLE, "onSuccess", "onError");
    private static final Kind SINGLE_BICONSUMER = new Kind("observers.BiConsumerSingleObserver",
            FireAndForgetObserver.SINGLE, "onCallback");
    private static final Kind MAYBE = new Kind("operators.maybe.MaybeCallbackObserver",
            FireAndForgetObserver.MAYBE, "onSuccess", "onError", "onComplete");
    private static final Kind COMPLETABLE_CALLBACK = new Kind("observers.CallbackCompletableObserver",
            FireAndForgetObserver.COMPLETABLE, "onComplete", "onError");
    private static final Kind COMPLETABLE_EMPTY = new Kind("observers.EmptyCompletableObserver", FireAndForgetObserver.COMPLETABLE);
    private static final Kind OBSERVABLE = new Kind("observers.LambdaObserver",
            FireAndForgetObserver.OBSERVABLE, "onNext", "onError", "onComplete", "onSubscribe");
    private static final Kind FLOWABLE = new Kind("subscribers.LambdaSubscriber",
            FireAndForgetObserver.FLOWABLE, "onNext", "onError", "onComplete", "onSubscribe");

    private static @Nullable FireAndForgetTracker installed;

    private FireAndForget() {}

    /** One of RxJava's lambda observer classes. */
    private static final class Kind {
        final @Nullable Class<?> type;
        final int rxType;
        final @Nullable LambdaFields fields;

        Kind(String cls, int rxType, String... callbacks) {
            Class<?> t;
            try {
                t = Class.forName(INTERNAL + cls, false, RxJavaPlugins.class.getClassLoader());
            } catch (ClassNotFoundException absent) {
                t = null; // another RxJava 3 line: that form is not found
            }
            this.type = t;
            this.rxType = rxType;
            this.fields = t == null || callbacks.length == 0 ? null
                    : new LambdaFields(MethodHandles.lookup(), t, null, INTERNAL, callbacks);
        }
    }

    /**
     * Installs the hooks for {@code scope} in {@code mode}, with the default framework packages and
     * site capture only under debug capture.
     *
     * @param scope the scope found subscriptions are associated with ({@code TRACK})
     * @param mode {@code REPORT} or {@code TRACK}
     * @return the tracker: its counts and list; closing it restores the previous hooks
     * @throws IllegalArgumentException if {@code mode} is {@code OFF}
     * @throws IllegalStateException if a tracker is installed already, or RxJava's plugins are locked down
     */
    public static FireAndForgetTracker install(CountingScope scope, FireAndForgetMode mode) {
        return install(scope, mode, FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES, false);
    }

    /**
     * Installs the hooks for {@code scope} in {@code mode}.
     *
     * @param scope the scope found subscriptions are associated with ({@code TRACK})
     * @param mode {@code REPORT} or {@code TRACK}
     * @param frameworkPackages package prefixes whose subscriptions are never found
     * @param captureSites whether to locate the subscribe site of every found subscription (a stack
     *     walk each); debug capture turns it on too
     * @return the tracker: its counts and list; closing it restores the previous hooks
     * @throws IllegalArgumentException if {@code mode} is {@code OFF}
     * @throws IllegalStateException if a tracker is installed already, or RxJava's plugins are locked down
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static synchronized FireAndForgetTracker install(CountingScope scope, FireAndForgetMode mode,
            Collection<String> frameworkPackages, boolean captureSites) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(mode, "mode");
        List<String> packages = List.copyOf(frameworkPackages);
        if (RxJavaPlugins.isLockdown()) {
            throw new IllegalStateException("RxJava's plugins are locked down (RxJavaPlugins.lockdown() was called),"
                    + " so the fire-and-forget hooks cannot be installed: install them before the lockdown, or set"
                    + " the mode to OFF");
        }
        FireAndForgetTracker current = installed;
        if (current != null) {
            throw new IllegalStateException("a fire-and-forget tracker is installed for RxJava already (" + current
                    + "); close it before installing another: one per application");
        }
        FireAndForgetTracker tracker = new FireAndForgetTracker("RxJava", scope, mode, packages, captureSites);

        BiFunction prevSingle = RxJavaPlugins.getOnSingleSubscribe();
        BiFunction prevMaybe = RxJavaPlugins.getOnMaybeSubscribe();
        BiFunction prevCompletable = RxJavaPlugins.getOnCompletableSubscribe();
        BiFunction prevObservable = RxJavaPlugins.getOnObservableSubscribe();
        BiFunction prevFlowable = RxJavaPlugins.getOnFlowableSubscribe();
        BiFunction<Single, SingleObserver, SingleObserver> single =
                (s, o) -> chain(prevSingle, s, (SingleObserver) lift(tracker, o));
        BiFunction<Maybe, MaybeObserver, MaybeObserver> maybe =
                (s, o) -> chain(prevMaybe, s, (MaybeObserver) lift(tracker, o));
        BiFunction<Completable, CompletableObserver, CompletableObserver> completable =
                (s, o) -> chain(prevCompletable, s, (CompletableObserver) lift(tracker, o));
        BiFunction<Observable, Observer, Observer> observable =
                (s, o) -> chain(prevObservable, s, (Observer) lift(tracker, o));
        BiFunction<Flowable, Subscriber, Subscriber> flowable =
                (s, o) -> chain(prevFlowable, s, (Subscriber) lift(tracker, o));
        RxJavaPlugins.setOnSingleSubscribe(single);
        RxJavaPlugins.setOnMaybeSubscribe(maybe);
        RxJavaPlugins.setOnCompletableSubscribe(completable);
        RxJavaPlugins.setOnObservableSubscribe(observable);
        RxJavaPlugins.setOnFlowableSubscribe(flowable);
        installed = tracker;
        tracker.onClose(() -> {
            synchronized (FireAndForget.class) {
                if (RxJavaPlugins.isLockdown()) {
                    installed = null; // the slots cannot change any more; the closed tracker lets everything through
                    return;
                }
                if (RxJavaPlugins.getOnSingleSubscribe() == single) {
                    RxJavaPlugins.setOnSingleSubscribe(prevSingle);
                }
                if (RxJavaPlugins.getOnMaybeSubscribe() == maybe) {
                    RxJavaPlugins.setOnMaybeSubscribe(prevMaybe);
                }
                if (RxJavaPlugins.getOnCompletableSubscribe() == completable) {
                    RxJavaPlugins.setOnCompletableSubscribe(prevCompletable);
                }
                if (RxJavaPlugins.getOnObservableSubscribe() == observable) {
                    RxJavaPlugins.setOnObservableSubscribe(prevObservable);
                }
                if (RxJavaPlugins.getOnFlowableSubscribe() == flowable) {
                    RxJavaPlugins.setOnFlowableSubscribe(prevFlowable);
                }
                installed = null;
            }
        });
        return tracker;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static <S, O> O chain(@Nullable BiFunction prev, S source, O observer) throws Throwable {
        return prev == null ? observer : (O) prev.apply(source, observer);
    }

    /** The hook: a lambda observer of the application's becomes a tracked one; anything else passes. */
    static Object lift(FireAndForgetTracker tracker, Object observer) {
        Kind k = kind(observer.getClass());
        if (k == null) {
            return observer;
        }
        LambdaFields f = k.fields;
        Object origin = tracker.origin(f == null ? null : f.firstCallback(observer));
        if (origin == null) {
            return observer;
        }
        AsyncScopeToken token = tracker.associate();
        FireAndForgetObserver work = new FireAndForgetObserver(observer, k.rxType,
                FireAndForgetToken.tracked(token) && !hasErrorCallback(observer));
        work.start(token, origin);
        return work;
    }

    /** Whether the application gave the lambda observer an error callback of its own. */
    private static boolean hasErrorCallback(Object observer) {
        return !(observer instanceof LambdaConsumerIntrospection)
                || ((LambdaConsumerIntrospection) observer).hasCustomOnError();
    }

    private static @Nullable Kind kind(Class<?> c) {
        if (c == OBSERVABLE.type) {
            return OBSERVABLE;
        } else if (c == FLOWABLE.type) {
            return FLOWABLE;
        } else if (c == SINGLE_CONSUMER.type) {
            return SINGLE_CONSUMER;
        } else if (c == MAYBE.type) {
            return MAYBE;
        } else if (c == COMPLETABLE_CALLBACK.type) {
            return COMPLETABLE_CALLBACK;
        } else if (c == COMPLETABLE_EMPTY.type) {
            return COMPLETABLE_EMPTY;
        } else if (c == SINGLE_BICONSUMER.type) {
            return SINGLE_BICONSUMER;
        }
        return null;
    }
}
