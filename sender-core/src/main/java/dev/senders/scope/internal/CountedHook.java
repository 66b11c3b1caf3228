package dev.senders.scope.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A global scheduler hook installed by counted installations: the first {@link #install}
 * installs it (and tells {@link TaskAttribution} a hook is on), the release of the last
 * installation removes it. Each adapter keeps one for its library ({@code ScheduledTaskTracking},
 * {@code RxScheduledTaskTracking}), holding only its library's hook (what {@code install} and
 * {@code remove} do) and its {@link Installation} subclass typed as its library's
 * {@code Disposable}; the counting, the attribution switch and the installation handle are here.
 * Not public API.
 *
 * <p>Thread safety: counting in and out and {@link #installed()} are synchronized on this object;
 * the {@code install} and {@code remove} actions run under that lock.
 */
public final class CountedHook {

    private final String name;
    private final Runnable install;
    private final Runnable remove;
    private int installations; // guarded by this

    /**
     * @param name the public class that installs it, for the installations' {@code toString}
     * @param install installs the hook; may throw (nothing is counted then)
     * @param remove removes it
     */
    public CountedHook(String name, Runnable install, Runnable remove) {
        this.name = name;
        this.install = install;
        this.remove = remove;
    }

    /**
     * Counts an installation, installing the hook if it is the first, and returns its handle;
     * what {@code install} throws propagates (nothing is counted then).
     *
     * @param <I> the adapter's installation type
     * @param newInstallation the adapter's {@link Installation} constructor, given this hook
     * @return the installation; its first {@code dispose()} counts it out
     */
    public <I extends Installation> I install(Function<CountedHook, I> newInstallation) {
        acquire();
        return newInstallation.apply(this);
    }

    private synchronized void acquire() {
        if (installations == 0) {
            install.run();
            TaskAttribution.hookInstalled();
        }
        installations++;
    }

    private synchronized void release() {
        if (--installations == 0) {
            TaskAttribution.hookRemoved();
            remove.run();
        }
    }

    /** Whether some installation is not released yet. */
    public synchronized boolean installed() {
        return installations > 0;
    }

    /**
     * One installation, released by its first {@code dispose()}: the adapters' subclasses add
     * their library's {@code Disposable} interface, whose two methods these are.
     */
    public abstract static class Installation extends AtomicBoolean {
        private static final long serialVersionUID = 1L;

        private final transient CountedHook hook;

        /** @param hook acquired by the caller, released by the first {@link #dispose()} */
        protected Installation(CountedHook hook) {
            this.hook = hook;
        }

        /** Releases this installation; idempotent. */
        public final void dispose() {
            if (compareAndSet(false, true)) {
                hook.release();
            }
        }

        /** Whether {@link #dispose()} was called. */
        public final boolean isDisposed() {
            return get();
        }

        @Override
        public final String toString() {
            return hook.name + ".install()[" + (isDisposed() ? "disposed" : "installed") + "]";
        }
    }
}
