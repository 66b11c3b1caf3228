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
 * stopped ones) and where. The hooks stay installed until {@link #close()}, the context's
 * destruction, which comes after every lifecycle phase, the web server's stop among them: a
 * request the server still handles after the scope closed has its subscription found, run
 * untracked and counted, and {@code close()} logs the report again when anything was found after
 * the shutdown's report.
 */
public final class FireAndForgetHooks implements ScopeShutdown.Listener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FireAndForgetHooks.class);

    private final FireAndForgetMode mode;
    private final List<FireAndForgetTracker> trackers;
    /** Each tracker's found count when the shutdown's report was logged, -1 before; guarded by itself. */
    private final long[] foundAtReport;

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
        this.foundAtReport = new long[ts.size()];
        java.util.Arrays.fill(foundAtReport, -1);
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
     * Logs each tracker's report (at WARN when subscriptions were still running at exit). The hooks
     * stay: a request still handled now has its subscription found and counted as untracked.
     */
    @Override
    public void scopeShutDown(ShutdownReport report) {
        synchronized (foundAtReport) {
            for (int i = 0; i < trackers.size(); i++) {
                foundAtReport[i] = trackers.get(i).foundCount();
                log(trackers.get(i), "");
            }
        }
    }

    /**
     * Removes the hooks, then, when subscriptions were found after the shutdown's report (requests
     * the web server handled after the scope closed), logs the report again. Idempotent.
     */
    @Override
    public void close() {
        synchronized (foundAtReport) {
            for (int i = 0; i < trackers.size(); i++) {
                FireAndForgetTracker t = trackers.get(i);
                t.close();
                long found = t.foundCount();
                if (foundAtReport[i] >= 0 && found > foundAtReport[i]) {
                    log(t, (found - foundAtReport[i]) + " more found after the shutdown's report, as the context closes: ");
                    foundAtReport[i] = found;
                }
            }
        }
    }

    private static void log(FireAndForgetTracker t, String prefix) {
        if (t.activeCount() > 0) {
            log.warn("senders: {}{}", prefix, t.report());
        } else {
            log.info("senders: {}{}", prefix, t.report());
        }
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
