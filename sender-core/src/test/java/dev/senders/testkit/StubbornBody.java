package dev.senders.testkit;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The body of work that ignores cancellation: once run, it blocks until the test
 * {@link #release()}s it, swallowing interrupts (a cancelled {@code subscribeOn} task or a
 * {@code shutdownNow} interrupts its thread), as blocking code that never checks for stop does.
 * It restores the interrupt status before it returns. Thread-safe; run it once.
 */
public final class StubbornBody implements Runnable {
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean ended;
    private volatile boolean interrupted;

    @Override
    public void run() {
        started.countDown();
        boolean wasInterrupted = false;
        for (;;) {
            try {
                release.await();
                break;
            } catch (InterruptedException e) {
                wasInterrupted = true; // ignored: that is the point
                interrupted = true;
            }
        }
        ended = true;
        if (wasInterrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (10 s at most, else {@link AssertionError}) until the body runs. */
    public void awaitStarted() throws InterruptedException {
        if (!started.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the stubborn body did not start within 10 s");
        }
    }

    /** Lets the body return. */
    public void release() {
        release.countDown();
    }

    /** Whether the body is running: started and not ended. */
    public boolean running() {
        return started.getCount() == 0 && !ended;
    }

    /** Whether the body has ended (its last action before it returns). */
    public boolean ended() {
        return ended;
    }

    /** Whether its thread was interrupted while it ran (a cancellation it ignored). */
    public boolean wasInterrupted() {
        return interrupted;
    }
}
