package dev.senders.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The one timer of the library and the clock its deadlines are measured on: every library wait
 * that takes a {@code Duration} and does not block its caller ({@code Senders.timeout}, anything
 * scheduled after a delay) schedules through {@link #schedule} and reads time through
 * {@link #nanoTime}. Not public API.
 *
 * <p>A single daemon thread, {@value #THREAD_NAME}, in a {@link ScheduledThreadPoolExecutor}
 * created on first use: a pending timeout is one queued task, not a thread. Cancelled tasks are
 * removed from the queue at once ({@code removeOnCancelPolicy}), so a timeout whose work completed
 * first leaves nothing behind. The thread ends after {@value #IDLE_SECONDS} s without pending
 * tasks and is created anew when needed. It is a {@link TimerThread}, which
 * {@code Hooks.isNonBlockingThread} reports as non-blocking: code that runs on it (stop
 * callbacks run by a firing timeout) delays every other timeout and must not block.
 *
 * <p><b>Replacement.</b> {@link #replace(Clock)} swaps the timer and its clock for another
 * (virtual time: {@code dev.senders.test.VirtualTime} in the {@code senders-test} module), until
 * {@link #restore(Clock)}. Tasks scheduled before a replacement stay on the timer they were
 * scheduled on. At most one replacement is installed at a time.
 *
 * <p>State: {@code replacement} is {@code null} (the real timer and {@link System#nanoTime()}) or
 * the installed {@link Clock}; it changes only by CAS ({@code null -> clock -> null}), and each
 * call reads it once.
 */
public final class SharedTimer {

    public static final String THREAD_NAME = "senders-timer";
    static final long IDLE_SECONDS = 10;

    /** A timer and the clock it runs on, replacing the real ones while installed. */
    public interface Clock {
        /**
         * Runs {@code task} once {@code delayNanos} have passed on this clock.
         *
         * @param task the task
         * @param delayNanos the delay, positive
         * @return a handle whose {@code cancel} drops the task if it has not run
         */
        ScheduledFuture<?> schedule(Runnable task, long delayNanos);

        /**
         * The current time of this clock, in nanoseconds from an arbitrary origin, like
         * {@link System#nanoTime()}.
         *
         * @return the current time
         */
        long nanoTime();
    }

    @SuppressWarnings("unused") // read and written through REPLACEMENT
    private static volatile @Nullable Clock replacement;

    private SharedTimer() {}

    /** Runs {@code task} on the timer thread (or the replacement's) after {@code delayNanos}. */
    public static ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        Clock c = replacement;
        if (c != null) {
            return c.schedule(task, delayNanos);
        }
        return Holder.EXECUTOR.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** The time deadlines are measured on: {@link System#nanoTime()}, or the replacement's clock. */
    public static long nanoTime() {
        Clock c = replacement;
        return c == null ? System.nanoTime() : c.nanoTime();
    }

    /**
     * Installs {@code clock} as the library's timer and clock.
     *
     * @throws IllegalStateException if another replacement is installed
     */
    public static void replace(Clock clock) {
        Objects.requireNonNull(clock, "clock");
        if (!REPLACEMENT.compareAndSet(null, clock)) {
            throw new IllegalStateException("another virtual clock is installed (" + replacement
                    + "): close it before installing a new one; tests that use virtual time must not run in parallel");
        }
    }

    /** Removes {@code clock} if it is the installed replacement; true if it was. */
    public static boolean restore(Clock clock) {
        return REPLACEMENT.compareAndSet(clock, null);
    }

    /** Tasks queued on the real timer (0 if it was never used): what pending timeouts cost, for tests and monitoring. */
    public static int pendingTasks() {
        return Holder.EXECUTOR.getQueue().size();
    }

    /** The timer thread's class: recognised as non-blocking by the library (and by its BlockHound integration). */
    public static final class TimerThread extends Thread {
        TimerThread(Runnable r) {
            super(r, THREAD_NAME);
            setDaemon(true);
        }
    }

    private static final class Holder {
        static final ScheduledThreadPoolExecutor EXECUTOR;

        static {
            ThreadFactory f = TimerThread::new;
            ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, f);
            e.setRemoveOnCancelPolicy(true);
            e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            e.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
            e.allowCoreThreadTimeOut(true);
            EXECUTOR = e;
        }
    }

    private static final VarHandle REPLACEMENT;

    static {
        try {
            REPLACEMENT = MethodHandles.lookup().findStaticVarHandle(SharedTimer.class, "replacement", Clock.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
