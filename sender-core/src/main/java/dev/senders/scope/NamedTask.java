package dev.senders.scope;

import java.util.concurrent.Callable;

/**
 * What {@link ScopeExecutor#named(Runnable, String)} and {@link ScopeExecutor#named(Callable,
 * String)} return: a task with the name a {@link ScopeExecutor} lists it under. Run anywhere
 * else, it is the task itself.
 */
final class NamedTask<V> implements Runnable, Callable<V> {

    final String name;
    private final Runnable runnable;
    private final Callable<V> callable;

    NamedTask(Runnable runnable, Callable<V> callable, String name) {
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
            callable.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    @Override
    public V call() throws Exception {
        if (callable != null) {
            return callable.call();
        }
        runnable.run();
        return null;
    }

    @Override
    public String toString() {
        return name;
    }
}
