package dev.senders.test;

import dev.senders.internal.SharedTimer;
import java.time.Duration;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A clock the test advances, which the library's deadlines follow: what reactor-test's
 * {@code VirtualTimeScheduler} and RxJava's {@code TestScheduler} are for their libraries, and
 * the virtual time of kotlinx-coroutines-test's {@code runTest}. While installed, every library
 * wait that takes a {@code Duration} and does not block its caller ({@code Senders.timeout},
 * {@code sender.timeout(d)}, the grace and stop deadlines of {@code Scopes.joinOrStopAsync},
 * anything the library schedules after a delay) is queued on this clock instead of the real
 * timer, and runs when the test advances the clock past its due time:
 *
 * <pre>{@code
 * try (VirtualTime time = VirtualTime.install()) {
 *     TestReceiver<String> r = TestReceiver.start(neverCompletes.timeout(Duration.ofSeconds(30)));
 *     time.advanceBy(Duration.ofSeconds(30));        // runs the deadline now, on this thread
 *     r.assertError(TimeoutException.class);
 * }
 * }</pre>
 *
 * <p>Waits that block the calling thread ({@code Senders.syncWait(sender, Duration)},
 * {@link TestReceiver#await(Duration)}, the join deadline of {@link SendersExtension}) stay on
 * the real clock: the blocked thread could not advance this one. The blocking
 * {@code Scopes.joinOrStop} keeps its deadlines on this clock, so only another thread's advance
 * ends it: under virtual time, start {@code Scopes.joinOrStopAsync} with a {@link TestReceiver}
 * and advance. Work that runs on real executors is not made synchronous: advancing time only runs
 * what is due on this clock.
 *
 * <p>Threads: due tasks run on the thread that calls {@link #advanceBy} or {@link #advanceTo},
 * in due order (ties in the order they were scheduled), with {@link #now()} set to their due
 * time; tasks they schedule that fall due within the same advance run in it too. Scheduling
 * and cancelling are thread-safe; advancing is done by one thread at a time.
 *
 * <p>Process-wide, like the hooks it replaces: at most one is installed at a time
 * ({@link #install()} fails while another is), so tests that use it must not run in parallel
 * with each other. {@link SendersExtension} installs one for a test that declares a
 * {@code VirtualTime} parameter and closes it after the test.
 *
 * <p>State: the queue, the clock reading {@code now} and the scheduling sequence are guarded by
 * {@code lock}; {@code advanceLock} serialises advances; cancelled tasks leave the queue at once.
 */
public final class VirtualTime implements AutoCloseable {

    private final Object lock = new Object();
    private final Object advanceLock = new Object();
    private final PriorityQueue<Task> queue = new PriorityQueue<>(); // guarded by lock
    private long now; // nanoseconds since install, guarded by lock
    private long sequence; // guarded by lock
    private final Clock clock = new Clock();

    private VirtualTime() {}

    /**
     * Installs a virtual clock at time zero in place of the library's timer and clock, until
     * {@link #close()}.
     *
     * @return the installed clock
     * @throws IllegalStateException if another one is installed (close it first)
     */
    public static VirtualTime install() {
        VirtualTime t = new VirtualTime();
        SharedTimer.replace(t.clock);
        return t;
    }

    /**
     * The virtual time since {@link #install()}.
     *
     * @return the time on this clock
     */
    public Duration now() {
        synchronized (lock) {
            return Duration.ofNanos(now);
        }
    }

    /**
     * Moves the clock forward by {@code amount}, running every task that falls due, in order.
     *
     * @param amount how far, zero or more
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public void advanceBy(Duration amount) {
        Objects.requireNonNull(amount, "amount");
        if (amount.isNegative()) {
            throw new IllegalArgumentException("advanceBy(" + amount + "): time only moves forward; give zero or more");
        }
        synchronized (advanceLock) {
            long target;
            synchronized (lock) {
                target = saturatedAdd(now, nanos(amount));
            }
            runUntil(target);
        }
    }

    /**
     * Moves the clock forward to {@code time} since {@link #install()}, running every task that
     * falls due, in order.
     *
     * @param time the time to move to, not before {@link #now()}
     * @throws IllegalArgumentException if {@code time} is before {@link #now()}
     */
    public void advanceTo(Duration time) {
        Objects.requireNonNull(time, "time");
        synchronized (advanceLock) {
            long target = nanos(time);
            synchronized (lock) {
                if (target < now) {
                    throw new IllegalArgumentException("advanceTo(" + time + ") is before now (" + Duration.ofNanos(now)
                            + "): time only moves forward");
                }
            }
            runUntil(target);
        }
    }

    /**
     * Runs the tasks due at the current time, without moving the clock.
     */
    public void runDue() {
        advanceBy(Duration.ZERO);
    }

    /**
     * How many tasks are waiting on this clock (cancelled ones are not counted).
     *
     * @return the number of pending tasks
     */
    public int pendingTasks() {
        synchronized (lock) {
            return queue.size();
        }
    }

    /**
     * Puts the library's real timer and clock back. Tasks still pending on this clock never run.
     * Idempotent.
     */
    @Override
    public void close() {
        SharedTimer.restore(clock);
        synchronized (lock) {
            queue.clear();
        }
    }

    @Override
    public String toString() {
        return "VirtualTime[now=" + now() + ", pending=" + pendingTasks() + "]";
    }

    private void runUntil(long target) {
        for (;;) {
            Task next;
            synchronized (lock) {
                next = queue.peek();
                if (next == null || next.due > target) {
                    now = target;
                    return;
                }
                queue.poll();
                now = Math.max(now, next.due);
            }
            next.run();
        }
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** The replacement the library sees. */
    private final class Clock implements SharedTimer.Clock {
        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
            Objects.requireNonNull(task, "task");
            synchronized (lock) {
                Task t = new Task(task, saturatedAdd(now, Math.max(0L, delayNanos)), sequence++);
                queue.add(t);
                return t;
            }
        }

        @Override
        public long nanoTime() {
            synchronized (lock) {
                return now;
            }
        }

        @Override
        public String toString() {
            return VirtualTime.this.toString();
        }
    }

    /** A queued task: due time, then scheduling order. */
    private final class Task extends FutureTask<Void> implements ScheduledFuture<Void> {
        final long due;
        final long seq;

        Task(Runnable task, long due, long seq) {
            super(task, null);
            this.due = due;
            this.seq = seq;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                synchronized (lock) {
                    queue.remove(this);
                }
            }
            return cancelled;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            synchronized (lock) {
                return unit.convert(due - now, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public int compareTo(Delayed other) {
            if (other instanceof Task t) {
                int c = Long.compare(due, t.due);
                return c != 0 ? c : Long.compare(seq, t.seq);
            }
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }
}
