package dev.senders.rxjava3;

import dev.senders.scope.internal.CountedHook;
import dev.senders.scope.internal.TaskAttribution;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.functions.Function;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import io.reactivex.rxjava3.schedulers.SchedulerRunnableIntrospection;
import org.jspecify.annotations.Nullable;

/**
 * Keeps work spawned with {@link RxScopes#spawn} associated with its scope until the tasks it
 * scheduled on RxJava's schedulers have returned, so that a scope reports "joined" (and a shutdown
 * such as {@code Scopes.joinOrStop} ends) only once the work's code has ended, not as soon as it
 * was disposed. A {@code Completable.fromRunnable(loop).subscribeOn(Schedulers.io())} whose loop
 * ignores disposal thus keeps the scope open while the loop runs: the shutdown waits for it within
 * its stop timeout and otherwise reports it as still running.
 *
 * <p>{@link #install()} sets RxJava's schedule handler ({@code RxJavaPlugins.setScheduleHandler}),
 * a single slot: the handler found there is kept and called first, so it keeps working, and it is
 * put back when the last installation is disposed, if ours is still the one installed (if another
 * handler was installed over ours meanwhile, it is left alone and ours only passes tasks through to
 * the one before it from then on). {@code RxJavaPlugins.lockdown()} freezes the slot: installing
 * after it throws an {@link IllegalStateException} saying so, and a removal after it leaves the
 * handler installed, passing tasks through.
 *
 * <p>The handler attributes a task to the spawned work current on the thread that schedules it,
 * with the same rule as Reactor's {@code ScheduledTaskTracking} (the two share it, and either
 * attributes what the other's scheduled tasks schedule): the work whose source is being subscribed
 * inside {@code spawn} (where {@code subscribeOn}, {@code delay}, {@code observeOn} and the like
 * schedule their first task), or the work of the attributed task the thread is running. After the
 * work ended (completed, failed, disposed, stopped), its association is released when its last
 * running task returns, on that task's thread. A task disposed before it starts holds nothing; one
 * that starts after the work released its association runs untracked. Not seen: threads the work
 * starts itself, executors that are not RxJava (or Reactor) schedulers, a foreign library's own
 * threads.
 *
 * <p>Install it once per application, before spawning: the Spring Boot starter does
 * ({@code senders.scope.track-scheduled-tasks}). Installations are counted: the handler stays until
 * every installation's {@code Disposable} was disposed. Thread safety: {@link #install()} and the
 * {@code dispose()} of what it returns may be called from any thread.
 */
public final class RxScheduledTaskTracking {

    private static final CountedHook HOOK = new CountedHook("RxScheduledTaskTracking", RxScheduledTaskTracking::setHandler,
            RxScheduledTaskTracking::removeHandler);
    private static @Nullable Handler handler; // guarded by HOOK's lock

    private RxScheduledTaskTracking() {}

    /**
     * Installs the schedule handler (if this is the first installation), chaining the one installed
     * before, and returns this installation's handle: disposing it removes the handler once every
     * installation was disposed.
     *
     * @return the installation; {@code dispose()} is idempotent
     * @throws IllegalStateException if RxJava's plugins are locked down
     *         ({@code RxJavaPlugins.lockdown()}) and the handler is not installed yet
     */
    public static Disposable install() {
        return HOOK.install(Installation::new);
    }

    /**
     * Whether the handler is installed (some installation is not disposed yet).
     *
     * @return {@code true} while installed
     */
    public static boolean isInstalled() {
        return HOOK.installed();
    }

    private static void setHandler() {
        if (RxJavaPlugins.isLockdown()) {
            throw new IllegalStateException("RxJavaPlugins is locked down, so the schedule handler that keeps"
                    + " spawned work counted while its scheduled tasks run cannot be installed: install"
                    + " RxScheduledTaskTracking before RxJavaPlugins.lockdown(), or do without it"
                    + " (Spring Boot: senders.scope.track-scheduled-tasks=false)");
        }
        Handler h = new Handler(RxJavaPlugins.getScheduleHandler());
        RxJavaPlugins.setScheduleHandler(h);
        handler = h;
    }

    private static void removeHandler() {
        Handler h = handler;
        handler = null;
        if (h == null) {
            return;
        }
        h.active = false;
        if (RxJavaPlugins.getScheduleHandler() == h && !RxJavaPlugins.isLockdown()) {
            RxJavaPlugins.setScheduleHandler(h.previous);
        }
    }

    /** The schedule handler: the previous handler's decoration, then the attribution. */
    private static final class Handler implements Function<Runnable, Runnable> {
        final @Nullable Function<? super Runnable, ? extends Runnable> previous;
        volatile boolean active = true;

        Handler(@Nullable Function<? super Runnable, ? extends Runnable> previous) {
            this.previous = previous;
        }

        @Override
        public Runnable apply(Runnable task) throws Throwable {
            Function<? super Runnable, ? extends Runnable> p = previous;
            Runnable decorated = p == null ? task : p.apply(task);
            return active && !wrapsAttributed(task) ? TaskAttribution.attribute(decorated) : decorated;
        }

        /**
         * RxJava decorates a direct task twice: the task, then the worker task wrapping it
         * ({@code scheduleDirect}); the wrapper of an attributed task is not attributed again.
         */
        private static boolean wrapsAttributed(Runnable task) {
            return task instanceof SchedulerRunnableIntrospection
                    && TaskAttribution.isAttributed(((SchedulerRunnableIntrospection) task).getWrappedRunnable());
        }

        @Override
        public String toString() {
            return "RxScheduledTaskTracking" + (previous == null ? "" : " after " + previous);
        }
    }

    /** One installation, typed as RxJava's {@code Disposable}: its first {@code dispose()} counts it out. */
    private static final class Installation extends CountedHook.Installation implements Disposable {
        private static final long serialVersionUID = 1L;

        Installation(CountedHook hook) {
            super(hook);
        }
    }
}
