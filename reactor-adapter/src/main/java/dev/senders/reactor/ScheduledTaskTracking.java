package dev.senders.reactor;

import dev.senders.scope.internal.CountedHook;
import dev.senders.scope.internal.TaskAttribution;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

/**
 * Keeps work spawned with {@link ReactorScopes#spawn} associated with its scope until the tasks it
 * scheduled on Reactor's schedulers have returned, so that a scope reports "joined" (and a
 * shutdown such as {@code Scopes.joinOrStop} ends) only once the work's code has ended, not as soon
 * as its subscription was cancelled. A {@code Mono.fromRunnable(loop).subscribeOn(boundedElastic())}
 * whose loop ignores cancellation thus keeps the scope open while the loop runs: the shutdown waits
 * for it within its stop timeout and otherwise reports it as still running.
 *
 * <p>{@link #install()} registers a schedule hook under {@link #HOOK_KEY}
 * ({@code Schedulers.onScheduleHook}), beside any other hook (each has its own key). The hook
 * attributes a task to the spawned work current on the thread that schedules it: the work whose
 * source is being subscribed inside {@code spawn} (where {@code subscribeOn}, {@code delay},
 * {@code publishOn} and the like schedule their first task), or the work of the attributed task the
 * thread is running, so tasks scheduled from inside attributed tasks are attributed too. While an
 * attributed task runs, the work's release is deferred: after the work ended (completed, failed,
 * disposed, stopped), its association is released when its last running task returns, on that
 * task's thread. A task that is disposed before it starts holds nothing; one that starts after the
 * work released its association runs untracked.
 *
 * <p>What it cannot see: code the work runs on a thread it starts itself, on an executor that is
 * not a Reactor scheduler (nor an RxJava one with {@code RxScheduledTaskTracking}), or on the
 * threads of a library that calls back from its own threads (a Netty event loop, say). Such code
 * can still run after the scope reported joined.
 *
 * <p>Install it once per application, before spawning: the Spring Boot starter does
 * ({@code senders.scope.track-scheduled-tasks}). Installations are counted: the hook stays until
 * every installation's {@code Disposable} was disposed. Cost: spawning with the hook installed
 * sets and restores the current work around {@code subscribe} (one thread-local lookup); every
 * task scheduled on a Reactor scheduler costs one thread-local lookup, and an attributed one a
 * wrapper and two atomic updates of its work.
 *
 * <p>Thread safety: {@link #install()} and the {@code dispose()} of what it returns may be called
 * from any thread.
 */
public final class ScheduledTaskTracking {

    /** The key of the schedule hook in {@code Schedulers.onScheduleHook}. */
    public static final String HOOK_KEY = "dev.senders.reactor.ScheduledTaskTracking";

    private static final CountedHook HOOK = new CountedHook("ScheduledTaskTracking",
            () -> Schedulers.onScheduleHook(HOOK_KEY, TaskAttribution::attribute),
            () -> Schedulers.resetOnScheduleHook(HOOK_KEY));

    private ScheduledTaskTracking() {}

    /**
     * Installs the schedule hook (if this is the first installation) and returns this
     * installation's handle: disposing it removes the hook once every installation was disposed.
     *
     * @return the installation; {@code dispose()} is idempotent
     */
    public static Disposable install() {
        return HOOK.install(Installation::new);
    }

    /**
     * Whether the hook is installed (some installation is not disposed yet).
     *
     * @return {@code true} while installed
     */
    public static boolean isInstalled() {
        return HOOK.installed();
    }

    /** One installation, typed as Reactor's {@code Disposable}: its first {@code dispose()} counts it out. */
    private static final class Installation extends CountedHook.Installation implements Disposable {
        private static final long serialVersionUID = 1L;

        Installation(CountedHook hook) {
            super(hook);
        }
    }
}
