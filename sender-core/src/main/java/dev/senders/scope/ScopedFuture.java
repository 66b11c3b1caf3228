package dev.senders.scope;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;

/**
 * The future of a {@link ScopeExecutor#submit submit}: a {@link FutureTask} that keeps the task's
 * exception (the scope's error handler does not see it) and that, cancelled before it ran, cancels
 * its {@link ScopedTask} so the scope's association is released at once instead of when the
 * executor gets to it.
 */
final class ScopedFuture<V> extends FutureTask<V> {

    /** The task's name for the scope's dump, or null. */
    final @Nullable String name;
    /** Set by {@link ScopeExecutor#execute} before the task is spawned. */
    volatile @Nullable ScopedTask task;

    ScopedFuture(Callable<V> callable, @Nullable String name) {
        super(callable);
        this.name = name;
    }

    ScopedFuture(Runnable runnable, V result, @Nullable String name) {
        super(runnable, result);
        this.name = name;
    }

    @Override
    protected void done() {
        ScopedTask t = task;
        if (t != null && isCancelled()) {
            t.cancel();
        }
    }

    @Override
    public String toString() {
        return name != null ? super.toString() + "[" + name + "]" : super.toString();
    }
}
