package dev.senders.scope.internal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A global scheduler hook installed by counted installations: the first {@link #acquire()}
 * installs it (and tells {@link TaskAttribution} a hook is on), the release of the last
 * installation removes it. Each adapter keeps one for its library ({@code ScheduledTaskTracking},
 * {@code RxScheduledTaskTracking}) and hands out {@link Installation}s typed as its library's
 * {@code Disposable}. Not public API.
 *
 * <p>Thread safety: {@code acquire}, {@code release} and {@link #installed()} are synchronized on
 * this object; {@code install} and {@code remove} run under that lock.
 */
public final class CountedHook {

    private final Runnable install;
    private final Runnable remove;
    private int installations; // guarded by this

    /**
     * @param install installs the hook; may throw (nothing is counted then)
     * @param remove removes it
     */
    public CountedHook(Runnable install, Runnable remove) {
        this.install = install;
        this.remove = remove;
    }

    /** Counts an installation, installing the hook if it is the first; what {@code install} throws propagates. */
    public synchronized void acquire() {
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
    }
}
