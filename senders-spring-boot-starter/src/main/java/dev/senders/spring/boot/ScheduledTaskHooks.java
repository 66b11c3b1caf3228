package dev.senders.spring.boot;

import java.util.Objects;
import org.springframework.beans.factory.DisposableBean;

/**
 * A scheduler hook installed for as long as the application context runs: Reactor's
 * {@code ScheduledTaskTracking} or RxJava's {@code RxScheduledTaskTracking}, which keep work
 * spawned with {@code ReactorScopes.spawn} / {@code RxScopes.spawn} associated with its scope
 * while the tasks it scheduled run (so the scope's shutdown waits for them, or reports them as
 * still running). The hook is installed when the bean is created and removed when the context
 * destroys it, after the scope's shutdown ({@link ScopeShutdown} runs in the lifecycle's stop
 * phase, before beans are destroyed). Installations are counted by the adapters, so several
 * contexts in one JVM each hold theirs.
 */
public final class ScheduledTaskHooks implements DisposableBean {

    private final String library;
    private final Runnable removal;

    /**
     * A hook that is installed.
     *
     * @param library the library whose schedulers it hooks, for {@link #toString()}
     * @param removal removes this installation (idempotent)
     */
    public ScheduledTaskHooks(String library, Runnable removal) {
        this.library = Objects.requireNonNull(library, "library");
        this.removal = Objects.requireNonNull(removal, "removal");
    }

    /** Removes the installation. */
    @Override
    public void destroy() {
        removal.run();
    }

    @Override
    public String toString() {
        return "ScheduledTaskHooks[" + library + "]";
    }
}
