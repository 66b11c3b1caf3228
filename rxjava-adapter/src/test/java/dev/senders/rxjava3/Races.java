package dev.senders.rxjava3;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs two actions at (nearly) the same time, like RxJava's {@code TestHelper.race}: one on the
 * calling thread, one on a helper thread, lined up by a short spin on a shared counter.
 */
final class Races {
    static final int LOOPS = 10_000;

    private static final ExecutorService HELPER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "race-helper");
        t.setDaemon(true);
        return t;
    });

    private Races() {}

    static void race(Runnable a, Runnable b) {
        AtomicInteger ready = new AtomicInteger(2);
        Future<?> f = HELPER.submit(() -> {
            if (ready.decrementAndGet() != 0) {
                while (ready.get() != 0) {
                    Thread.yield(); // 2 shared cores: give the other racer the CPU
                }
            }
            b.run();
        });
        if (ready.decrementAndGet() != 0) {
            while (ready.get() != 0) {
                Thread.yield(); // 2 shared cores: give the other racer the CPU
            }
        }
        RuntimeException ex = null;
        try {
            a.run();
        } catch (RuntimeException e) {
            ex = e;
        }
        try {
            f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("race action b failed", e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError(e);
        }
        if (ex != null) {
            throw ex;
        }
    }
}
