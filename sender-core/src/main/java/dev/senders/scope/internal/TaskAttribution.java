package dev.senders.scope.internal;

import org.jspecify.annotations.Nullable;

/**
 * Attributes the tasks that spawned work schedules on a foreign scheduler (Reactor's, RxJava's)
 * to that work, so that the work's association with its scope is released only once those tasks
 * have returned: "joined" then means the work's code has ended, not only that its subscription was
 * cancelled. Used by the adapters' scheduler hooks ({@code ScheduledTaskTracking},
 * {@code RxScheduledTaskTracking}); not public API.
 *
 * <p>The rule:
 * <ul>
 * <li>A thread has a <em>current work</em>: the {@link SpawnedWork} whose source it is
 *     subscribing (inside {@code spawn}, around the source's {@code subscribe}), or the work of the
 *     attributed task it is running. Only while at least one hook is installed
 *     ({@link #hookInstalled}); otherwise spawns do not touch it.
 * <li>A task scheduled while a thread has a current work ({@link #attribute}, called by the hooks
 *     on the scheduling thread) is wrapped: when it starts, it is counted on the work
 *     ({@code SpawnedWork.taskStarted}) and the work is current on its thread while it runs, so
 *     what it schedules is attributed too, transitively; when it returns, the count goes down and
 *     the last task releases a completion that was waiting for it.
 * <li>Scheduling costs nothing but the wrapper; a task that never starts (disposed before it ran)
 *     holds nothing. A task that starts after the work released its association runs untracked.
 * <li>Nothing else is seen: a thread the work's code starts itself, an executor that is not one of
 *     the hooked schedulers, a callback of a foreign library on its own threads.
 * </ul>
 *
 * <p>Thread safety: {@link #attribute} and the wrapper run on any thread; {@link #hookInstalled}
 * and {@link #hookRemoved} are synchronized (they run when hooks are installed or removed).
 */
public final class TaskAttribution {

    /*
     * The current work is kept in a per-thread mutable slot, so that entering and leaving costs
     * one ThreadLocal lookup and two field writes. hooks is read on every spawn (a plain load on
     * x86): with no hook installed a spawn does nothing more.
     */

    private static final ThreadLocal<Slot> CURRENT = ThreadLocal.withInitial(Slot::new);

    /** How many scheduler hooks are installed; 0: spawns do not set a current work. */
    static volatile int hooks;

    private TaskAttribution() {}

    /** A scheduler hook was installed: spawns set their current work from now on. */
    public static synchronized void hookInstalled() {
        hooks++;
    }

    /** A scheduler hook was removed (call once per {@link #hookInstalled}). */
    public static synchronized void hookRemoved() {
        if (hooks == 0) {
            throw new IllegalStateException("hookRemoved() without a matching hookInstalled()");
        }
        hooks--;
    }

    /**
     * The hooks' decorator, called on the thread that schedules {@code task}: {@code task} itself
     * if the thread has no current work, else a wrapper that attributes it to that work.
     *
     * @param task the task being scheduled
     * @return what to schedule instead
     */
    public static Runnable attribute(Runnable task) {
        SpawnedWork work = CURRENT.get().work;
        return work == null ? task : new AttributedTask(work, task);
    }

    /**
     * Whether {@code task} is already attributed (a hook sees it again when a scheduler decorates
     * the wrapper of a task it decorated before, as RxJava's {@code scheduleDirect} does).
     *
     * @param task a task a hook was given
     * @return {@code true} if it is the wrapper {@link #attribute} made
     */
    public static boolean isAttributed(Runnable task) {
        return task instanceof AttributedTask;
    }

    /** The work the calling thread is attributing to, if any (for tests and diagnostics). */
    static @Nullable SpawnedWork current() {
        return CURRENT.get().work;
    }

    /** {@code work.subscribeUpstream()} with {@code work} current on this thread. */
    static void subscribe(SpawnedWork work) {
        runAs(work, null);
    }

    /** {@code task.run()}, or {@code work.subscribeUpstream()} if it is null, with {@code work} current on this thread. */
    private static void runAs(SpawnedWork work, @Nullable Runnable task) {
        Slot slot = CURRENT.get();
        SpawnedWork outer = slot.work;
        slot.work = work;
        try {
            if (task == null) {
                work.subscribeUpstream();
            } else {
                task.run();
            }
        } finally {
            slot.work = outer;
        }
    }

    private static final class Slot {
        @Nullable SpawnedWork work;
    }

    /** A scheduled task attributed to the work current when it was scheduled. */
    private static final class AttributedTask implements Runnable {
        private final SpawnedWork work;
        private final Runnable task;

        AttributedTask(SpawnedWork work, Runnable task) {
            this.work = work;
            this.task = task;
        }

        @Override
        public void run() {
            if (!work.taskStarted()) {
                task.run(); // the work has released its association: untracked
                return;
            }
            try {
                runAs(work, task);
            } finally {
                work.taskEnded();
            }
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }
}
