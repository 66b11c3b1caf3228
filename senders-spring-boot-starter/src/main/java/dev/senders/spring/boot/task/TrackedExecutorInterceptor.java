package dev.senders.spring.boot.task;

import dev.senders.Sender;
import dev.senders.scope.ScopeExecutor;
import dev.senders.spring.boot.ScopeSpawner;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The advice of a tracked executor's proxy: {@code execute}, {@code submit} and
 * {@code submitCompletable} go through a {@link ScopeExecutor} over the bean itself (the target,
 * not the proxy), whose tasks are spawned with the application's {@link ScopeSpawner} (counted, with
 * the submitting thread's context, under the task's name). A task is named after the
 * {@code @Async} method submitting it ({@link AsyncMethodNames}), else {@code "<bean name> task"}.
 * The task of an {@code @Async} method fails its work in the scope when the method fails, however
 * Spring delivers that failure ({@link AsyncFailures}). Every other method reaches the bean
 * unchanged.
 */
final class TrackedExecutorInterceptor implements MethodInterceptor {

    /** On the thread in {@link #invoke}: the outcome of the {@code @Async} task being submitted. */
    private static final ThreadLocal<AsyncFailures.Outcome> SUBMITTING = new ThreadLocal<>();

    private final Executor target;
    private final String defaultName;
    private final ObjectProvider<ScopeSpawner> spawners;
    private volatile @Nullable ScopeExecutor view;

    TrackedExecutorInterceptor(Executor target, String beanName, ObjectProvider<ScopeSpawner> spawners) {
        this.target = target;
        this.defaultName = beanName + " task";
        this.spawners = spawners;
    }

    private ScopeExecutor view() {
        ScopeExecutor v = view;
        if (v == null) {
            ScopeSpawner spawner = spawners.getObject();
            ScopeExecutor.Spawner tasks = spawner.taskSpawner();
            v = ScopeExecutor.of(target, spawner.scope(), (task, name) -> {
                AsyncFailures.Outcome outcome = SUBMITTING.get();
                return tasks.spawn(outcome == null ? task : AsyncFailures.failing(task, outcome), name);
            });
            view = v;
        }
        return v;
    }

    private String name() {
        String n = AsyncMethodNames.current();
        return n != null ? n : defaultName;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object[] args = invocation.getArguments();
        if (args.length == 0 || !(args[0] instanceof Runnable || args[0] instanceof Callable)) {
            return invocation.proceed();
        }
        String method = invocation.getMethod().getName();
        if (!method.equals("execute") && !method.equals("submit") && !method.equals("submitCompletable")) {
            return invocation.proceed();
        }
        String asyncMethod = AsyncMethodNames.current();
        if (asyncMethod == null) {
            return submit(method, args[0], defaultName);
        }
        AsyncFailures.Outcome outcome = new AsyncFailures.Outcome();
        Object task = !method.equals("execute") && args[0] instanceof Callable<?> c ? AsyncFailures.task(c, outcome)
                : AsyncFailures.task((Runnable) args[0], outcome);
        SUBMITTING.set(outcome);
        try {
            return submit(method, task, asyncMethod);
        } finally {
            SUBMITTING.remove();
        }
    }

    private @Nullable Object submit(String method, Object task, String name) {
        ScopeExecutor v = view();
        switch (method) {
            case "execute":
                v.execute(ScopeExecutor.named((Runnable) task, name)); // execute's parameter is a Runnable
                return null;
            case "submit":
                if (task instanceof Callable<?> c) {
                    return v.submit(ScopeExecutor.named(c, name));
                }
                return v.submit(ScopeExecutor.named((Runnable) task, name));
            default: { // submitCompletable
                Executor named = command -> v.execute(ScopeExecutor.named(command, name));
                if (task instanceof Callable<?> c) {
                    return CompletableFuture.supplyAsync(supplier(c), named);
                }
                return CompletableFuture.runAsync((Runnable) task, named);
            }
        }
    }

    private static <T> Supplier<T> supplier(Callable<T> task) {
        return () -> {
            try {
                return task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        };
    }
}
