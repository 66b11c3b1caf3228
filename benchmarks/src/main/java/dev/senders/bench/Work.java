package dev.senders.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The task every variant runs: a trivial counter increment. {@link #INC} is a plain increment for
 * single-threaded (inline) benchmarks, {@link #ATOMIC_INC} an atomic one where tasks run on pool
 * threads. Every library gets the same {@code Runnable}, so the task body is identical across
 * variants; only tracking and joining differ.
 */
final class Work {
    static long count;
    static final AtomicLong ATOMIC = new AtomicLong();

    static final Runnable INC = () -> count++;
    static final Runnable ATOMIC_INC = ATOMIC::incrementAndGet;

    private Work() {
    }

    static void reset() {
        count = 0;
        ATOMIC.set(0);
    }

    /** Every benchmark ends with this: a failed check fails the run instead of producing a number. */
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("benchmark self-check failed: " + what);
        }
    }
}
