package dev.senders.spring.boot;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.ShutdownReport;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fire-and-forget hooks of an application ({@code senders.scope.fire-and-forget}): installs
 * the Reactor and RxJava adapters' hooks that are asked for and on the class path, for the
 * application scope (unless another application context in the JVM holds them: then it logs a
 * warning and goes on without), logs one line at startup saying which mode is on, and, as a
 * {@link ScopeShutdown.Listener}, logs each tracker's report when the scope's shutdown ends: how
 * many fire-and-forget subscriptions were found, how many were still running at exit and where
 * they were subscribed, and in {@code TRACK} how many ended after the scope's stop request (the
 * stopped ones) and where. The hooks are removed when the scope's shutdown ends, or by {@link #close()} (the
 * context's destruction) if it never ran.
 */
public final class FireAndForgetHooks implements ScopeShutdown.Listener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FireAndForgetHooks.class);

    private final FireAndForgetMode mode;
    private final List<FireAndForgetTracker> trackers;

    /**
     * Installs the hooks.
     *
     * @param scope the application scope
     * @param mode {@code senders.scope.fire-and-forget}
     * @param reactor whether to install Reactor's hook (Reactor and the adapter are on the class path)
     * @param rxjava whether to install RxJava's hooks (RxJava and the adapter are on the class path)
     * @param frameworkPackages package prefixes whose subscriptions are never found
     */
    public FireAndForgetHooks(CountingScope scope, FireAndForgetMode mode, boolean reactor, boolean rxjava,
            Collection<String> frameworkPackages) {
        this.mode = Objects.requireNonNull(mode, "mode");
        List<FireAndForgetTracker> ts = new ArrayList<>();
        if (mode != FireAndForgetMode.OFF) {
            if (reactor) {
                install(ts, () -> ReactorHook.install(scope, mode, frameworkPackages));
            }
            if (rxjava) {
                install(ts, () -> RxJavaHook.install(scope, mode, frameworkPackages));
            }
        }
        this.trackers = List.copyOf(ts);
        if (mode == FireAndForgetMode.OFF || ts.isEmpty()) {
            log.info("senders: fire-and-forget subscriptions are not looked for (senders.scope.fire-and-forget={}{})",
                    mode.name().toLowerCase(java.util.Locale.ROOT), mode == FireAndForgetMode.OFF ? ""
                            : ", and neither the Reactor nor the RxJava adapter is on the class path");
        } else {
            log.info("senders: fire-and-forget subscriptions are {} for scope '{}' ({}; senders.scope.fire-and-forget={})",
                    mode == FireAndForgetMode.TRACK ? "tracked (joined and stopped by the scope)" : "reported",
                    scope.name(), String.join(", ", ts.stream().map(FireAndForgetTracker::adapter).toList()),
                    mode.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /**
     * Installs one adapter's hook. The hooks are one per JVM: when another application context
     * (a cached test context, a second application in the JVM) holds them, or RxJava's plugins are
     * locked down, this context goes on without them and says so.
     */
    private static void install(List<FireAndForgetTracker> ts, java.util.function.Supplier<FireAndForgetTracker> install) {
        try {
            ts.add(install.get());
        } catch (IllegalStateException taken) {
            log.warn("senders: fire-and-forget subscriptions of this application context are not looked for: {}",
                    taken.getMessage());
        }
    }

    /**
     * The mode in effect.
     *
     * @return {@code senders.scope.fire-and-forget}
     */
    public FireAndForgetMode mode() {
        return mode;
    }

    /**
     * The installed trackers (none in {@code OFF}).
     *
     * @return one per adapter installed
     */
    public List<FireAndForgetTracker> trackers() {
        return trackers;
    }

    /**
     * Logs each tracker's report (at WARN when subscriptions were still running at exit), then
     * removes the hooks: the scope is shut down, so nothing found from now on could be tracked.
     */
    @Override
    public void scopeShutDown(ShutdownReport report) {
        for (FireAndForgetTracker t : trackers) {
            if (t.activeCount() > 0) {
                log.warn("senders: {}", t.report());
            } else {
                log.info("senders: {}", t.report());
            }
        }
        close();
    }

    /** Removes the hooks. */
    @Override
    public void close() {
        trackers.forEach(FireAndForgetTracker::close);
    }

    /** Loaded only when Reactor's adapter is on the class path. */
    private static final class ReactorHook {
        static FireAndForgetTracker install(CountingScope scope, FireAndForgetMode mode, Collection<String> packages) {
            return dev.senders.reactor.FireAndForget.install(scope, mode, packages, false);
        }
    }

    /** Loaded only when RxJava's adapter is on the class path. */
    private static final class RxJavaHook {
        static FireAndForgetTracker install(CountingScope scope, FireAndForgetMode mode, Collection<String> packages) {
            return dev.senders.rxjava3.FireAndForget.install(scope, mode, packages, false);
        }
    }
}
