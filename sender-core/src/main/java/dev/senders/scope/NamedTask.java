package dev.senders.scope;

import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * What {@link ScopeExecutor#named(Runnable, String)} and {@link ScopeExecutor#named(Callable,
 * String)} return: a task with the name a {@link ScopeExecutor} lists it under. Run anywhere
 * else, it is the task itself.
 */
final class NamedTask<V> implements Runnable, Callable<V> {

    final String name;
    private final @Nullable Runnable runnable;
    private final @Nullable Callable<V> callable;

    NamedTask(@Nullable Runnable runnable, @Nullable Callable<V> callable, String name) {
        this.runnable = runnable;
        this.callable = callable;
        this.name = name;
    }

    @Override
    public void run() {
        if (runnable != null) {
            runnable.run();
            return;
        }
        try {
            Nulls.nonNull(callable).call(); // one of the two is set
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    @Override
    public @Nullable V call() throws Exception {
        if (callable != null) {
            return callable.call();
        }
        Nulls.nonNull(runnable).run(); // one of the two is set
        return null;
    }

    @Override
    public String toString() {
        return name;
    }
}
