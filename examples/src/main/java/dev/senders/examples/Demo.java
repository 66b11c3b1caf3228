package dev.senders.examples;

import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.reactor.ReactorSchedulers;
import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.task.Task;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;

/**
 * The main job: fire-and-forget work with an owner.
 *
 * <p>Spawns a mix of work into one {@link CountingScope} on a pool of four threads (plain senders,
 * Reactor {@code Mono}s, {@link Task}s, some that fail, some that would run for a minute), closes
 * the scope, shows that a spawn after close is refused, joins with a timeout, requests stop on what
 * is left, and prints the tally. Every unit of work that was accepted must end in exactly one of
 * completed, stopped or failed (its error routed to the scope's handler); if the numbers do not add
 * up the program exits with status 1.
 *
 * <pre>{@code mvn -B -q -pl examples -am -DskipTests package exec:java}</pre>
 */
public final class Demo {

    private static final int PLAIN = 40;
    private static final int MONOS = 10;
    private static final int TASKS = 5;
    private static final int FAILING = 3;
    private static final int SLOW = 4;
    private static final Duration JOIN_TIMEOUT = Duration.ofMillis(500);

    private final AtomicInteger spawned = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicInteger stopped = new AtomicInteger();
    private final AtomicInteger errors = new AtomicInteger();
    private final AtomicInteger ranAfterClose = new AtomicInteger();
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();

    /** Errors of spawned work never vanish: the scope routes them here (on the failing thread). */
    private final CountingScope scope = new CountingScope(error -> {
        errors.incrementAndGet();
        firstError.compareAndSet(null, error);
    });

    public static void main(String[] args) throws Exception {
        int lost = new Demo().run();
        System.exit(lost == 0 ? 0 : 1);
    }

    /** Runs the demo and returns how many units of work were lost (0 when the invariant holds). */
    int run() throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "demo-pool");
            t.setDaemon(true);
            return t;
        });
        Scheduler pool = Schedulers.fromExecutor(executor);
        reactor.core.scheduler.Scheduler reactorPool = ReactorSchedulers.toReactor(pool);
        long t0 = System.nanoTime();
        try {
            out("senders demo: one CountingScope, a pool of 4 threads");

            for (int i = 0; i < PLAIN; i++) {                    // plain senders, 5-15 ms of work
                int ms = 5 + i % 11;
                spawn(tally(Senders.just().startsOn(pool).then(v -> sleep(ms))));
            }
            for (int i = 0; i < MONOS; i++) {                    // Monos, through the Reactor adapter
                int ms = 10 + i;
                spawnMono(Mono.fromCallable(() -> sleep(ms)).subscribeOn(reactorPool)
                        .doOnSuccess(v -> completed.incrementAndGet())
                        .doOnCancel(stopped::incrementAndGet));
            }
            for (int i = 0; i < TASKS; i++) {                    // imperative bodies that await senders
                spawn(tally(Task.of(ctx -> {
                    ctx.await(Senders.schedule(pool));            // hop onto the pool and back
                    Thread.sleep(20);
                    return null;
                })));
            }
            for (int i = 0; i < FAILING; i++) {                  // errors: routed to the scope's handler
                int n = i + 1;
                spawn(tally(Senders.just().startsOn(pool).then(v -> {
                    throw new IllegalStateException("audit backend down #" + n);
                })));
            }
            for (int i = 0; i < SLOW; i += 2) {                  // would run for a minute each
                spawnMono(Mono.delay(Duration.ofSeconds(60))
                        .doOnSuccess(v -> completed.incrementAndGet())
                        .doOnCancel(stopped::incrementAndGet));
                spawn(tally(Task.of(ctx -> {                       // a stop interrupts the sleep
                    Thread.sleep(60_000);
                    return null;
                })));
            }
            out("spawned   %3d units of work: %d plain senders, %d Monos, %d Tasks, %d that fail, %d slow (60 s)",
                    spawned.get(), PLAIN, MONOS, TASKS, FAILING, SLOW);

            scope.close();
            out("closed    the scope: state %s, %d still running", scope.state(), scope.count());

            spawn(Senders.just().then(v -> ranAfterClose.incrementAndGet()));
            spawnMono(Mono.fromRunnable(ranAfterClose::incrementAndGet));
            out("refused   %3d spawns after close: Scopes.spawn returned false, ReactorScopes.spawn never subscribed (%d ran)",
                    refused.get(), ranAfterClose.get());

            CompletableFuture<Void> joined = Senders.toCompletableFuture(scope.join());
            try {
                joined.get(JOIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                out("joined    within %d ms", JOIN_TIMEOUT.toMillis());
            } catch (TimeoutException e) {
                out("timeout   join did not finish within %d ms: %d still running -> requestStop()",
                        JOIN_TIMEOUT.toMillis(), scope.count());
                scope.requestStop();
                try {
                    joined.get(5, TimeUnit.SECONDS);             // a hang guard, not a measurement
                } catch (TimeoutException stuck) {
                    out("STUCK     %d units of work ignored the stop request", scope.count());
                }
            }
            out("joined    state %s, count %d, after %d ms", scope.state(), scope.count(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        } finally {
            reactorPool.dispose();
            executor.shutdownNow();
        }

        int ended = completed.get() + stopped.get() + errors.get();
        int lost = spawned.get() - ended + ranAfterClose.get();
        out("completed %3d", completed.get());
        out("stopped   %3d (by the scope's stop request)", stopped.get());
        out("errors    %3d routed to the scope's handler (scope.errorCount() = %d; first: %s)",
                errors.get(), scope.errorCount(), firstError.get());
        out("refused   %3d", refused.get());
        out("spawned   %3d = completed %d + stopped %d + errors %d", spawned.get(), completed.get(),
                stopped.get(), errors.get());
        if (lost == 0 && scope.count() == 0 && scope.errorCount() == errors.get()) {
            out("none lost");
        } else {
            out("LOST      %d units of work (scope count %d)", lost, scope.count());
            lost = Math.max(lost, 1);
        }
        return lost;
    }

    /** Spawns a sender; a refusal (closed scope) is counted, never silent. */
    private void spawn(Sender<?> work) {
        if (Scopes.spawn(work, scope.getToken())) {
            spawned.incrementAndGet();
        } else {
            refused.incrementAndGet();
        }
    }

    /**
     * Spawns a Mono with {@code ReactorScopes.spawn}: subscribed now, on this thread, or never (scope
     * closed). The scope's stop request cancels it. Its {@code Disposable} is disposed both when
     * refused and when already finished, so accepted-or-refused is read from {@code doOnSubscribe}.
     */
    private void spawnMono(Mono<?> mono) {
        boolean[] subscribed = {false};
        ReactorScopes.spawn(mono.doOnSubscribe(s -> subscribed[0] = true), scope.getToken());
        if (subscribed[0]) {
            spawned.incrementAndGet();
        } else {
            refused.incrementAndGet();
        }
    }

    /** Counts how a unit of work ended; errors pass through to the scope's handler. */
    private Sender<Void> tally(Sender<?> work) {
        return work.<Void>then(v -> {
            completed.incrementAndGet();
            return null;
        }).uponStopped(() -> {
            stopped.incrementAndGet();
            return null;
        });
    }

    /** Stands in for blocking work (an HTTP call, a JDBC write) in code that cannot throw checked exceptions. */
    private static Void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return null;
    }

    private static void out(String format, Object... args) {
        System.out.println(String.format(format, args));
    }
}
