package dev.senders.examples;

import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A shutdown that hangs, and what the operator sees: an order service spawns audits into a named
 * scope; one audit calls a backend that ignores stop requests. {@code Scopes.joinOrStop} closes
 * the scope, waits out the grace period, requests stop (the well-behaved work ends), waits again
 * and returns a report naming what is still running. Run with {@code -Ddev.senders.debug=true}
 * to see where each piece was spawned.
 *
 * <pre>mvn -B -q -pl examples -am -DskipTests package exec:java -Dexec.mainClass=dev.senders.examples.StuckShutdown</pre>
 */
public final class StuckShutdown {

    private StuckShutdown() {}

    /** Runs the story and returns the report (printed by {@link #main}). */
    public static ShutdownReport run() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountingScope scope = new CountingScope("orders", e -> System.err.println("audit failed: " + e));
            for (int order = 1; order <= 3; order++) {
                audit(scope, order, Senders.schedule(Schedulers.fromExecutor(pool)));  // quick: done at once
            }
            audit(scope, 7, hangingBackendCall());                                     // ignores stop
            Scopes.spawn(slowButStoppable(), scope.getToken());                        // unnamed, honours stop
            return Scopes.joinOrStop(scope, Duration.ofMillis(100), Duration.ofMillis(200));
        } finally {
            pool.shutdownNow();
        }
    }

    private static void audit(CountingScope scope, int order, Sender<Void> call) {
        Scopes.spawn(Scopes.named(call, "audit-" + order), scope.getToken());
    }

    /** A call that never completes and registers no stop callback: the stuck one. */
    private static Sender<Void> hangingBackendCall() {
        return receiver -> () -> { };
    }

    /** Work that runs until stop is requested, then completes stopped (on the stopping thread). */
    private static Sender<Void> slowButStoppable() {
        return receiver -> () -> receiver.env().stopToken().onStop(receiver::setStopped);
    }

    public static void main(String[] args) throws InterruptedException {
        ShutdownReport report = run();
        System.out.println(report);
        TimeUnit.MILLISECONDS.sleep(10);
    }
}
