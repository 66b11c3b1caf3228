package dev.senders.internal;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The one timer of the library (used by {@code Senders.timeout}). Not public API.
 *
 * <p>A single daemon thread, {@value #THREAD_NAME}, in a {@link ScheduledThreadPoolExecutor}
 * created on first use: a pending timeout is one queued task, not a thread. Cancelled tasks are
 * removed from the queue at once ({@code removeOnCancelPolicy}), so a timeout whose work completed
 * first leaves nothing behind. The thread ends after {@value #IDLE_SECONDS} s without pending
 * tasks and is created anew when needed. It is a {@link TimerThread}, which
 * {@code Hooks.isNonBlockingThread} reports as non-blocking: code that runs on it (stop
 * callbacks run by a firing timeout) delays every other timeout and must not block.
 */
public final class SharedTimer {

    public static final String THREAD_NAME = "senders-timer";
    static final long IDLE_SECONDS = 10;

    private SharedTimer() {}

    /** Runs {@code task} on the timer thread after {@code delayNanos}. */
    public static ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        return Holder.EXECUTOR.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Tasks queued on the timer (0 if it was never used): what pending timeouts cost, for tests and monitoring. */
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
}
